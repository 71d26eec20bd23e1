"""A simulated board on a byte stream: a design's rx/tx pins joined to stdin/stdout or a pty.

The design is a ``wiring.Component`` with ``rx: In(1)`` and ``tx: Out(1)`` (clock and reset are
the implicit ``clk``/``rst``). It runs on Verilator with the harness of
:mod:`trax_fpga.sim.verilator` in its UART mode, all in C++: each input byte is shifted into
``rx`` as an 8N1 frame, one bit every ``round(clk_hz / baud)`` clock cycles, frames back to back
while bytes are waiting; ``tx`` is sampled in the middle of each bit after a falling edge, and
each complete byte is written out at once (a frame whose stop bit is low is dropped and counted
as a framing error).

Simulated time runs as fast as the simulation can go while anything happens (or at most
``speed`` times real time). When the pins are
idle and one more cycle leaves the whole design state unchanged (a fixed point), the bridge stops
simulating and sleeps until the next input byte, so an idle design costs no CPU. A design that
never settles (a free-running counter) keeps the bridge busy.

With stdin/stdout, the bridge stops once the input has ended, every byte has been sent, and the
design has settled or ``tx`` has stayed idle for ``linger`` cycles (default: 100 frames). With a
pty, it prints the pty's path on its stdout, then runs until its stdin is closed or it gets
SIGINT/SIGTERM.

Usage::

    status = run_bridge(Echo(), clk_hz=12_000_000, baud=115_200)           # stdin/stdout
    with simulated_port(Echo(), clk_hz=12_000_000, baud=115_200) as path:  # a pty
        port = serial.Serial(path, timeout=1)
"""

import contextlib
import subprocess
import sys

from .verilator import Model, SimulationError, build

__all__ = ["bridge_command", "open_simulated_port", "run_bridge", "simulated_port"]


def _model(design) -> Model:
    model = design if isinstance(design, Model) else build(design)
    rx, tx = model.ports.get("rx"), model.ports.get("tx")
    if rx is None or tx is None or not rx.is_input or tx.is_input or rx.width != 1 or tx.width != 1:
        raise ValueError(
            f"the design needs an rx: In(1) and a tx: Out(1) port, not {sorted(model.ports)}"
        )
    return model


def bridge_command(
    design,
    clk_hz: float,
    baud: float,
    *,
    pty: bool = False,
    linger: int | None = None,
    speed: float | None = None,
    stats: bool = False,
    report: bool = False,
) -> list[str]:
    """The command line that runs the bridge for ``design`` (a component or a built Model).

    ``linger``: with stdin, stop this many cycles after ``tx`` fell idle once input ended, even
    if the design has not settled. ``speed``: at most this many simulated seconds per second
    (1.0 is real time; default unlimited). ``stats``: print counts on stderr at the end.
    ``report`` (with ``pty``): after each line the design sends, a line ``report NAME=VALUE ...``
    of its search's status outputs on the bridge's stdout.
    """
    if not clk_hz >= 2 * baud > 0:
        raise ValueError(f"need clk_hz >= 2 * baud > 0, not clk_hz={clk_hz!r}, baud={baud!r}")
    command = [str(_model(design).executable), "--uart", repr(float(clk_hz)), repr(float(baud))]
    if pty:
        command.append("--pty")
    if linger is not None:
        command += ["--linger", str(int(linger))]
    if speed is not None:
        if not speed > 0:
            raise ValueError(f"speed must be positive, not {speed!r}")
        command += ["--speed", repr(float(speed))]
    if stats:
        command.append("--stats")
    if report:
        if not pty:
            raise ValueError("report needs pty (stdout carries the bytes otherwise)")
        command.append("--report")
    return command


def run_bridge(design, clk_hz: float, baud: float, pty: bool = False, **options) -> int:
    """Run the bridge in the foreground on this process's stdin/stdout; return its exit status.

    With ``pty=True`` the pty's path is printed first and the bridge runs until stdin closes or
    Ctrl-C. ``options`` are those of :func:`bridge_command`.
    """
    command = bridge_command(design, clk_hz, baud, pty=pty, **options)
    try:
        return subprocess.run(command, check=False).returncode
    except KeyboardInterrupt:
        return 130


def open_simulated_port(
    design, clk_hz: float, baud: float, **options
) -> tuple[str, subprocess.Popen]:
    """Start the bridge on a new pty; return the pty's path (for ``serial.Serial``) and the process.

    Close the process's stdin (or terminate it) to stop the bridge.
    """
    command = bridge_command(design, clk_hz, baud, pty=True, **options)
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    path = process.stdout.readline().strip()
    if not path.startswith("/dev/"):
        process.kill()
        process.wait()
        raise SimulationError(f"the bridge did not start (exit status {process.returncode})")
    return path, process


def stop_bridge(process: subprocess.Popen, timeout: float = 5) -> int:
    """Stop a bridge started by :func:`open_simulated_port`; return its exit status."""
    with contextlib.suppress(OSError):
        process.stdin.close()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()
    return process.returncode


@contextlib.contextmanager
def simulated_port(design, clk_hz: float, baud: float, **options):
    """:func:`open_simulated_port` as a context manager yielding the path; stops on exit."""
    path, process = open_simulated_port(design, clk_hz, baud, **options)
    try:
        yield path
    finally:
        stop_bridge(process)


def main(argv=None) -> int:
    """``python -m trax_fpga.sim.uart_bridge [--pty]``: an echo design (tx = rx, registered)."""
    import argparse

    from amaranth.hdl import Module
    from amaranth.lib import wiring
    from amaranth.lib.wiring import In, Out

    class Loopback(wiring.Component):
        rx: In(1)
        tx: Out(1, init=1)

        def elaborate(self, platform):
            m = Module()
            m.d.sync += self.tx.eq(self.rx)
            return m

    parser = argparse.ArgumentParser(prog="python -m trax_fpga.sim.uart_bridge")
    parser.add_argument("--pty", action="store_true", help="serve a pty instead of stdin/stdout")
    parser.add_argument("--clk-hz", type=float, default=12e6, help="default: %(default)s")
    parser.add_argument("--baud", type=float, default=115200, help="default: %(default)s")
    args = parser.parse_args(argv)
    return run_bridge(Loopback(), args.clk_hz, args.baud, pty=args.pty, stats=True)


if __name__ == "__main__":
    sys.exit(main())
