// A generic Verilator harness for one Amaranth top level (see trax_fpga/sim/verilator.py).
//
// "ports.inc" is generated per design: the port table, set_port()/get_port() and HAS_* macros.
//
// Modes:
//   harness                       the pipe protocol on stdin/stdout (VerilatorSim drives it)
//   harness --uart CLK_HZ BAUD [--pty [--report]] [--linger CYCLES] [--speed X] [--stats]
//                                 join the design's rx/tx pins to a byte stream, 8N1: bytes from
//                                 stdin (or a pseudo-terminal, whose path is printed first) are
//                                 shifted into rx, bytes sampled from tx go to stdout (or the pty);
//                                 --speed X: at most X simulated seconds per second (default: no
//                                 limit); the design sleeps at a fixed point in any case;
//                                 --report (with --pty): after each line the design sends, a line
//                                 "report NAME=VALUE ..." on stdout with the design's status
//                                 outputs among search_depth, search_nodes, search_cycles and
//                                 answer_cycles
//
// Pipe protocol, little-endian, a port value is words(port) 32-bit words, least significant first:
//   'S' u16 port, value          set an input (no reply)
//   'G' u16 port                 reply: value (inputs are settled first)
//   'T' u64 n                    n clock cycles (no reply)
//   'U' u16 port, value, u64 max cycle until port == value, at most max cycles;
//                                reply: u64 cycles taken, or ~0 when max was reached
//   'X' stream exchange          drive an input stream and collect an output stream in one go:
//       u16 in_valid, u16 in_payload, u16 in_ready, u32 n_in, n_in payload values,
//       u16 out_valid, u16 out_payload, u16 out_ready, u32 n_out, u8 has_stop, stop value,
//       u64 max_cycles   (port 0xFFFF: none; the payload values are words(payload) words)
//       reply: u64 cycles taken, u8 timed out, u32 sent, u32 received, received payloads
//   'C'                          reply: u64 cycles run so far
//   'P'                          reply: one byte 'P' (a ping)
//   'Q'                          exit

#include "Vtop.h"
#include "Vtop___024root.h"
#include "verilated.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <vector>

struct PortInfo {
    const char* name;
    int words;
    bool input;
};

template <typename T>
static inline void put(T& dst, const uint32_t* w, int words) {
    uint64_t v = w[0];
    if (words > 1) v |= static_cast<uint64_t>(w[1]) << 32;
    dst = static_cast<T>(v);
}
template <std::size_t N>
static inline void put(VlWide<N>& dst, const uint32_t* w, int) {
    for (std::size_t i = 0; i < N; i++) dst[i] = w[i];
}
template <typename T>
static inline void take(const T& src, uint32_t* w, int words) {
    uint64_t v = src;
    w[0] = static_cast<uint32_t>(v);
    if (words > 1) w[1] = static_cast<uint32_t>(v >> 32);
}
template <std::size_t N>
static inline void take(const VlWide<N>& src, uint32_t* w, int) {
    for (std::size_t i = 0; i < N; i++) w[i] = src[i];
}

#include "ports.inc"

static const int N_PORTS = sizeof(PORTS) / sizeof(PORTS[0]);

static Vtop* top;
static uint64_t cycles = 0;
static bool dirty = true;  // inputs changed since the last eval()

static inline void settle() {
    if (dirty) {
        top->eval();
        dirty = false;
    }
}

static inline void tick() {
#if HAS_CLK
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
#else
    top->eval();
#endif
    dirty = false;
    cycles++;
}

[[noreturn]] static void die(const char* what) {
    std::fprintf(stderr, "harness: %s\n", what);
    std::exit(2);
}

// ---------------------------------------------------------------------------------------------
// Buffered pipe I/O.

static unsigned char in_buf[1 << 16];
static size_t in_pos = 0, in_len = 0;
static std::vector<unsigned char> out_buf;

static void read_exact(void* dst, size_t n) {
    auto* p = static_cast<unsigned char*>(dst);
    while (n) {
        if (in_pos == in_len) {
            ssize_t got = read(0, in_buf, sizeof in_buf);
            if (got == 0) std::exit(0);  // the driver closed the pipe
            if (got < 0) {
                if (errno == EINTR) continue;
                die("read failed");
            }
            in_pos = 0;
            in_len = static_cast<size_t>(got);
        }
        size_t k = in_len - in_pos < n ? in_len - in_pos : n;
        std::memcpy(p, in_buf + in_pos, k);
        in_pos += k;
        p += k;
        n -= k;
    }
}

static void write_all(int fd, const unsigned char* p, size_t n) {
    while (n) {
        ssize_t put_n = write(fd, p, n);
        if (put_n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            die("write failed");
        }
        p += put_n;
        n -= static_cast<size_t>(put_n);
    }
}

static void reply(const void* src, size_t n) {
    auto* p = static_cast<const unsigned char*>(src);
    out_buf.insert(out_buf.end(), p, p + n);
}

static void flush_replies() {
    if (out_buf.empty()) return;
    write_all(1, out_buf.data(), out_buf.size());
    out_buf.clear();
}

static int read_port(bool need_input) {
    uint16_t index;
    read_exact(&index, 2);
    if (index >= N_PORTS) die("port index out of range");
    if (need_input && !PORTS[index].input) die("cannot set an output port");
    return index;
}

static const uint16_t NO_PORT = 0xFFFF;

static uint16_t read_optional_port() {
    uint16_t index;
    read_exact(&index, 2);
    if (index != NO_PORT && index >= N_PORTS) die("port index out of range");
    return index;
}

static void set_bit(uint16_t port, uint32_t bit) {
    if (port == NO_PORT) return;
    uint32_t words[2] = {bit, 0};
    set_port(top, port, words);
    dirty = true;
}

static uint32_t get_bit(uint16_t port) {
    if (port == NO_PORT) return 1;  // an absent ready or valid is always asserted
    uint32_t words[2];
    get_port(top, port, words);
    return words[0] & 1;
}

// Stream transfers follow amaranth.lib.stream: a payload moves on a clock edge at which valid
// and ready are both high (as settled just before the edge).
static void stream_exchange() {
    uint16_t in_valid = read_optional_port(), in_payload = read_optional_port();
    uint16_t in_ready = read_optional_port();
    uint32_t n_in;
    read_exact(&n_in, 4);
    int in_words = in_payload == NO_PORT ? 0 : PORTS[in_payload].words;
    std::vector<uint32_t> inputs(static_cast<size_t>(n_in) * in_words);
    read_exact(inputs.data(), 4 * inputs.size());
    uint16_t out_valid = read_optional_port(), out_payload = read_optional_port();
    uint16_t out_ready = read_optional_port();
    uint32_t n_out;
    read_exact(&n_out, 4);
    unsigned char has_stop;
    read_exact(&has_stop, 1);
    int out_words = out_payload == NO_PORT ? 0 : PORTS[out_payload].words;
    std::vector<uint32_t> stop(out_words ? out_words : 1), value(out_words ? out_words : 1);
    read_exact(stop.data(), 4 * out_words);
    uint64_t max;
    read_exact(&max, 8);
    if (n_in && (in_valid == NO_PORT || in_payload == NO_PORT)) die("no input stream given");
    if (n_out && (out_valid == NO_PORT || out_payload == NO_PORT)) die("no output stream given");

    std::vector<uint32_t> outputs;
    uint32_t sent = 0, received = 0;
    bool stopped = false;
    uint64_t taken = 0;
    unsigned char timed_out = 0;
    auto offer = [&]() {
        set_bit(in_valid, sent < n_in);
        if (sent < n_in) {
            set_port(top, in_payload, &inputs[static_cast<size_t>(sent) * in_words]);
            dirty = true;
        }
    };
    auto want = [&]() { return received < n_out && !stopped; };
    if (n_in) offer();
    if (n_out) set_bit(out_ready, want());
    while (sent < n_in || want()) {
        if (taken == max) {
            timed_out = 1;
            break;
        }
        settle();
        bool in_fire = sent < n_in && get_bit(in_ready);
        bool out_fire = want() && get_bit(out_valid);
        if (out_fire) {
            get_port(top, out_payload, value.data());
            outputs.insert(outputs.end(), value.begin(), value.begin() + out_words);
            if (has_stop && std::memcmp(value.data(), stop.data(), 4 * out_words) == 0) {
                stopped = true;
            }
        }
        tick();
        taken++;
        if (in_fire) {
            sent++;
            offer();
        }
        if (out_fire) {
            received++;
            set_bit(out_ready, want());
        }
    }
    if (n_in) set_bit(in_valid, 0);
    if (n_out) set_bit(out_ready, 0);
    reply(&taken, 8);
    reply(&timed_out, 1);
    reply(&sent, 4);
    reply(&received, 4);
    reply(outputs.data(), 4 * outputs.size());
}

static int pipe_mode() {
    std::vector<uint32_t> value(MAX_WORDS), current(MAX_WORDS);
    for (;;) {
        // Reply as soon as no more requests are waiting, so batched requests cost one write.
        if (in_pos == in_len) flush_replies();
        unsigned char op;
        read_exact(&op, 1);
        switch (op) {
        case 'S': {
            int i = read_port(true);
            read_exact(value.data(), 4 * PORTS[i].words);
            set_port(top, i, value.data());
            dirty = true;
            break;
        }
        case 'G': {
            int i = read_port(false);
            settle();
            get_port(top, i, value.data());
            reply(value.data(), 4 * PORTS[i].words);
            break;
        }
        case 'T': {
            uint64_t n;
            read_exact(&n, 8);
            while (n--) tick();
            break;
        }
        case 'U': {
            int i = read_port(false);
            int words = PORTS[i].words;
            uint64_t max;
            read_exact(value.data(), 4 * words);
            read_exact(&max, 8);
            settle();
            uint64_t taken = 0;
            for (;;) {
                get_port(top, i, current.data());
                if (std::memcmp(current.data(), value.data(), 4 * words) == 0) break;
                if (taken == max) {
                    taken = ~static_cast<uint64_t>(0);
                    break;
                }
                tick();
                taken++;
            }
            reply(&taken, 8);
            break;
        }
        case 'X': stream_exchange(); break;
        case 'C': reply(&cycles, 8); break;
        case 'P': reply(&op, 1); break;
        case 'Q': flush_replies(); return 0;
        default: die("unknown request");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// UART bridge.

#if HAS_UART
static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int) { stop_requested = 1; }

struct Bridge {
    uint64_t divisor;          // clock cycles per bit
    int in_fd, out_fd;         // byte stream: stdin/stdout, or the pty master twice
    int control_fd;            // with --pty: stdin, whose end-of-file stops the bridge
    bool input_open = true;
    uint64_t linger;           // after end of input: stop once tx was idle this long
    double clk_hz = 0, speed = 0;  // speed > 0: at most speed * clk_hz cycles per second
    double pace_start = 0;
    uint64_t pace_cycles = 0;
    std::deque<unsigned char> pending;  // bytes waiting to be shifted into rx

    // rx shifter: 10 bits (start, 8 data, stop), each held `divisor` cycles
    int rx_bit = -1;           // -1: idle (line high)
    uint16_t rx_frame = 0;
    uint64_t rx_count = 0;

    // tx sampler: middle of each bit after a falling edge
    int tx_bit = -1;           // -1: waiting for a start bit
    uint64_t tx_count = 0;
    unsigned tx_byte = 0;
    uint64_t tx_idle = 0;      // cycles since tx last did anything

    uint64_t bytes_in = 0, bytes_out = 0, framing_errors = 0, idle_waits = 0;
    bool report = false;       // --report: status outputs on stdout after each line sent

    void report_line() {
        static const char* names[] = {"search_depth", "search_nodes", "search_cycles",
                                      "answer_cycles"};
        std::string text = "report";
        for (const char* name : names) {
            for (int i = 0; i < N_PORTS; i++) {
                if (std::strcmp(PORTS[i].name, name) != 0 || PORTS[i].input) continue;
                uint32_t words[MAX_WORDS > 2 ? MAX_WORDS : 2] = {0};
                get_port(top, i, words);
                text += " " + std::string(name) + "=" + std::to_string(words[0]);
            }
        }
        std::printf("%s\n", text.c_str());
        std::fflush(stdout);
    }
    std::vector<char> snapshot;

    void drive_rx() {
        if (rx_bit < 0 && !pending.empty()) {
            rx_frame = static_cast<uint16_t>((1u << 9) | (pending.front() << 1));
            pending.pop_front();
            rx_bit = 0;
            rx_count = 0;
        }
        top->rx = rx_bit < 0 ? 1 : (rx_frame >> rx_bit) & 1;
    }

    void advance_rx() {
        if (rx_bit < 0) return;
        if (++rx_count == divisor) {
            rx_count = 0;
            if (++rx_bit == 10) rx_bit = -1;
        }
    }

    void sample_tx() {
        int level = top->tx & 1;
        if (tx_bit < 0) {
            if (level) {
                tx_idle++;
                return;
            }
            tx_bit = 0;  // falling edge: the start bit began on this cycle
            tx_count = 0;
            tx_byte = 0;
        }
        tx_idle = 0;
        // Sample bit k at divisor/2 + k*divisor cycles after the falling edge.
        if (tx_count++ != divisor / 2 + static_cast<uint64_t>(tx_bit) * divisor) return;
        if (tx_bit == 0) {
            if (level) tx_bit = -1;  // a glitch, not a start bit
            else tx_bit = 1;
            return;
        }
        if (tx_bit <= 8) {
            tx_byte |= static_cast<unsigned>(level) << (tx_bit - 1);
            tx_bit++;
            return;
        }
        // The stop bit.
        if (level) {
            unsigned char byte = static_cast<unsigned char>(tx_byte);
            write_all(out_fd, &byte, 1);
            bytes_out++;
            if (report && byte == '\n') report_line();
        } else {
            framing_errors++;
        }
        tx_bit = -1;
    }

    void step() {
        drive_rx();
        tick();
        sample_tx();
        advance_rx();
    }

    bool quiet() const { return rx_bit < 0 && pending.empty() && tx_bit < 0 && (top->tx & 1); }

    // True when the design's whole state is unchanged by one more cycle with the pins idle:
    // it then stays so until a byte arrives, and the bridge can wait without simulating.
    bool at_fixed_point() {
        const char* state = reinterpret_cast<const char*>(top->rootp);
        size_t size = sizeof(*top->rootp);
        snapshot.assign(state, state + size);
        step();
        return std::memcmp(snapshot.data(), state, size) == 0;
    }

    // Read what is available, waiting up to timeout_ms for it (-1: until something comes).
    void poll_input(int timeout_ms) {
        struct pollfd fds[2];
        int n = 0;
        if (input_open) fds[n++] = {in_fd, POLLIN, 0};
        int control_index = -1;
        if (control_fd >= 0) {
            control_index = n;
            fds[n++] = {control_fd, POLLIN, 0};
        }
        if (n == 0 && timeout_ms < 0) return;
        int ready = poll(n ? fds : nullptr, n, timeout_ms);  // with no fds: a sleep
        if (ready <= 0) return;
        if (input_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            unsigned char buf[4096];
            ssize_t got = read(in_fd, buf, sizeof buf);
            if (got > 0) {
                pending.insert(pending.end(), buf, buf + got);
                bytes_in += static_cast<uint64_t>(got);
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                if (control_fd < 0) input_open = false;  // stdin mode: end of input
            }
        }
        if (control_index >= 0 && (fds[control_index].revents & (POLLIN | POLLHUP | POLLERR))) {
            char buf[256];
            ssize_t got = read(control_fd, buf, sizeof buf);
            if (got <= 0) stop_requested = 1;
        }
    }

    static double now() {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return t.tv_sec + t.tv_nsec * 1e-9;
    }

    void restart_pacing() {
        pace_start = now();
        pace_cycles = cycles;
    }

    // Wait while simulated time is ahead of the allowed speed, taking in input meanwhile.
    void pace() {
        while (!stop_requested) {
            double ahead = (cycles - pace_cycles) / (clk_hz * speed) - (now() - pace_start);
            if (ahead < 0.001) return;
            poll_input(static_cast<int>(ahead * 1000));
        }
    }

    int run() {
        restart_pacing();
        const uint64_t chunk = 1024;
        for (;;) {
            if (stop_requested) return 0;
            poll_input(0);
            if (quiet()) {
                if (!input_open && tx_idle >= linger) return 0;
                if (at_fixed_point()) {
                    if (!input_open) return 0;
                    idle_waits++;
                    poll_input(-1);
                    restart_pacing();
                    continue;
                }
            }
            for (uint64_t i = 0; i < chunk; i++) step();
            if (speed > 0) pace();
        }
    }
};

static int open_pty(int& slave_fd) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) die("cannot open a pty");
    const char* name = ptsname(master);
    if (!name) die("ptsname failed");
    slave_fd = open(name, O_RDWR | O_NOCTTY);
    if (slave_fd < 0) die("cannot open the pty's slave end");
    struct termios tio;
    tcgetattr(slave_fd, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave_fd, TCSANOW, &tio);
    std::printf("%s\n", name);
    std::fflush(stdout);
    return master;
}

static int uart_mode(int argc, char** argv) {
    if (argc < 4) die("usage: harness --uart CLK_HZ BAUD [--pty] [--linger CYCLES] [--stats]");
    double clk_hz = std::strtod(argv[2], nullptr);
    double baud = std::strtod(argv[3], nullptr);
    if (!(clk_hz > 0) || !(baud > 0) || clk_hz < 2 * baud) die("need CLK_HZ >= 2 * BAUD > 0");
    Bridge bridge;
    bridge.divisor = static_cast<uint64_t>(clk_hz / baud + 0.5);
    bridge.clk_hz = clk_hz;
    bridge.linger = 100 * 10 * bridge.divisor;
    bool use_pty = false, stats = false;
    for (int i = 4; i < argc; i++) {
        std::string arg = argv[i];
        if (arg == "--pty") use_pty = true;
        else if (arg == "--stats") stats = true;
        else if (arg == "--report") bridge.report = true;
        else if (arg == "--linger" && i + 1 < argc) bridge.linger = std::strtoull(argv[++i], nullptr, 0);
        else if (arg == "--speed" && i + 1 < argc) bridge.speed = std::strtod(argv[++i], nullptr);
        else die("unknown argument");
    }
    if (bridge.report && !use_pty) die("--report needs --pty (stdout carries the bytes)");
    int slave_fd = -1;
    if (use_pty) {
        int master = open_pty(slave_fd);
        bridge.in_fd = bridge.out_fd = master;
        bridge.control_fd = 0;
    } else {
        bridge.in_fd = 0;
        bridge.out_fd = 1;
        bridge.control_fd = -1;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGPIPE, SIG_IGN);
    top->rx = 1;
    int status = bridge.run();
    if (stats) {
        std::fprintf(stderr,
                     "harness: %llu cycles, %llu bytes in, %llu bytes out, %llu framing errors, "
                     "%llu idle waits\n",
                     (unsigned long long)cycles, (unsigned long long)bridge.bytes_in,
                     (unsigned long long)bridge.bytes_out, (unsigned long long)bridge.framing_errors,
                     (unsigned long long)bridge.idle_waits);
    }
    if (slave_fd >= 0) close(slave_fd);
    return status;
}
#endif

int main(int argc, char** argv) {
    Verilated::commandArgs(1, argv);  // no +verilator+ options are passed through
    top = new Vtop;
#if HAS_CLK
    top->clk = 0;
#endif
    top->eval();
    int status;
    if (argc > 1 && std::string(argv[1]) == "--uart") {
#if HAS_UART
        status = uart_mode(argc, argv);
#else
        die("this design has no rx input and tx output");
#endif
    } else {
        status = pipe_mode();
    }
    top->final();
    delete top;
    return status;
}
