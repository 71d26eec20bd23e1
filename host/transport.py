"""Line transports of the contest protocol: one interface, four links (serial, TCP, process, mock).

A :class:`Transport` sends and receives ASCII text lines. Lines end in LF on the way out; on the
way in LF, CR and CRLF all end a line, and empty lines are skipped (the protocol ignores them).
:meth:`Transport.read_line` waits at most ``timeout`` seconds and reports every failure as a
:class:`LinkError`:

- :class:`LineTimeoutError`: no complete line in time (the bytes received so far are kept);
- :class:`MalformedLineError`: a line holding a byte that is not printable ASCII, or one longer than
  ``max_line`` characters (the rest of an over-long line is dropped up to its end);
- :class:`DisconnectedError`: the peer closed the link (end of file, broken pipe, lost socket).

So a noisy line never crashes the caller. Every byte sent and received is logged at DEBUG on the
``trax.link`` logger.

Answers are matched to requests: :meth:`Transport.take_stray` returns (and forgets) every line,
and the unfinished start of one, that arrived while nobody asked; a player calls it just before
each request, so that such output is never read as the answer to a later one. Memory stays
bounded whatever the peer sends: an over-long line is cut at ``max_line`` and the rest of it is
dropped up to its end, and at most ``MAX_STRAY`` stray lines are kept.

:class:`ProcessTransport` runs its program in a session (process group) of its own, so that the
whole group, a shell wrapper's children included, is ended when the link closes.
"""

from __future__ import annotations

import abc
import collections
import contextlib
import dataclasses
import logging
import os
import selectors
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from .errors import TraxError

__all__ = [
    "DISCONNECT",
    "MAX_LINE",
    "MAX_STRAY",
    "DisconnectedError",
    "Garbage",
    "LineTimeoutError",
    "LinkError",
    "MalformedLineError",
    "ProcessTransport",
    "Reply",
    "ScriptError",
    "ScriptedTransport",
    "SerialTransport",
    "StdioTransport",
    "TcpTransport",
    "Transport",
    "describe_exit",
    "end_group",
    "group_alive",
]

log = logging.getLogger("trax.link")

#: The public referee reads at most 16 bytes up to the LF.
MAX_LINE = 16
#: Stray lines kept between two requests (more are counted, not kept).
MAX_STRAY = 32
#: Bytes read at most by one :meth:`Transport.take_stray` (a peer that never stops is cut off).
_STRAY_BYTES = 1 << 16
_CHUNK = 4096
#: How often (seconds) a program's link, waiting for its output, checks whether the program
#: has exited: a process it started may still hold its output open, and then no end of file
#: comes (a wrapper that died with its engine still running was seen waiting for ever).
EXIT_POLL = 1.0


class LinkError(TraxError):
    """The link failed to deliver a well-formed line."""


class LineTimeoutError(LinkError):
    """No complete line arrived within the time allowed."""

    def __init__(self, name: str, timeout: float, partial: bytes) -> None:
        self.timeout = timeout
        self.partial = partial
        got = f" (got {partial!r} so far)" if partial else ""
        super().__init__(f"{name}: no answer within {timeout:g} s{got}")


class MalformedLineError(LinkError):
    """A line with bytes that are not printable ASCII, or longer than the limit."""

    def __init__(self, name: str, raw: bytes, reason: str) -> None:
        self.raw = raw
        self.reason = reason
        super().__init__(f"{name}: {reason}: {raw!r}")


class DisconnectedError(LinkError):
    """The peer closed the link."""


class Transport(abc.ABC):
    """A bidirectional line link to one player (or to the referee, from a player's side).

    Subclasses move bytes (:meth:`_write`, :meth:`_read`, :meth:`_close`); this class frames them
    into lines. ``name`` appears in error messages and logs.
    """

    def __init__(self, name: str, max_line: int = MAX_LINE) -> None:
        if not isinstance(max_line, int) or max_line < 1:
            raise ValueError(f"max_line must be a positive integer, not {max_line!r}")
        self.name = name
        self.max_line = max_line
        self._buffer = bytearray()
        self._lines: collections.deque[str | MalformedLineError] = collections.deque()
        self._after_cr = False  # the last byte ended a line with CR: a following LF is no line
        self._dropping = False  # inside the tail of an over-long line
        self._overflow = 0  # lines dropped because MAX_STRAY were waiting
        self._eof = False
        self.closed = False

    # --- the interface -----------------------------------------------------------------------

    def send_line(self, text: str) -> None:
        """Send ``text`` followed by LF; raise :class:`DisconnectedError` if the peer is gone."""
        if "\n" in text or "\r" in text:
            raise ValueError(f"a line cannot hold a line break: {text!r}")
        data = text.encode("ascii") + b"\n"
        if self.closed:
            raise DisconnectedError(f"{self.name}: the link is closed")
        if self._eof:
            raise DisconnectedError(f"{self.name}: the peer closed the link{self._status()}")
        log.debug("%s < %r", self.name, data)
        try:
            self._write(data)
        except (OSError, EOFError) as error:
            raise DisconnectedError(
                f"{self.name}: link lost while sending ({error}){self._status()}"
            ) from None

    def read_line(self, timeout: float | None = None) -> str:
        """The next non-empty line, without its terminator, waiting at most ``timeout`` s.

        ``None`` waits for ever. Raises :class:`LineTimeoutError`, :class:`MalformedLineError` or
        :class:`DisconnectedError` (see the module's docstring).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._lines:
                line = self._lines.popleft()
                if isinstance(line, MalformedLineError):
                    raise line
                return line
            if self._eof:
                partial = f" (unfinished line {bytes(self._buffer)!r})" if self._buffer else ""
                raise DisconnectedError(
                    f"{self.name}: the peer closed the link{partial}{self._status()}"
                )
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise LineTimeoutError(self.name, timeout, bytes(self._buffer))
            try:
                data = self._read(remaining)
            except (OSError, EOFError) as error:
                log.debug("%s: read failed: %s", self.name, error)
                data = b""
            if data is None:
                continue
            log.debug("%s > %r", self.name, data)
            if not data:
                self._eof = True
            else:
                self._frame(data)

    def take_stray(self) -> list[bytes]:
        """Every line received and not yet read, and the start of an unfinished one: output that
        nobody asked for. Reads what is waiting without blocking (at most 64 KiB), returns it
        (malformed lines as their raw bytes, at most ``MAX_STRAY`` lines) and forgets it.

        The tail of an over-long line keeps being dropped up to its end.
        """
        budget = _STRAY_BYTES
        while not self._eof and budget > 0:
            try:
                data = self._read(0)
            except (OSError, EOFError):
                data = b""
            if data is None:
                break
            log.debug("%s > %r", self.name, data)
            if not data:
                self._eof = True
            else:
                budget -= len(data)
                self._frame(data)
        stray = [
            line.raw if isinstance(line, MalformedLineError) else line.encode("ascii")
            for line in self._lines
        ]
        if self._buffer:
            stray.append(bytes(self._buffer))
        self._lines.clear()
        self._buffer.clear()
        if self._overflow:
            stray.append(f"[{self._overflow} more lines]".encode("ascii"))
            self._overflow = 0
        return stray

    def discard_input(self) -> None:
        """Drop every line and byte received so far (see :meth:`take_stray`)."""
        self.take_stray()

    def close(self) -> None:
        """Close the link (idempotent)."""
        if not self.closed:
            self.closed = True
            log.debug("%s: closing", self.name)
            self._close()

    def abort(self) -> None:
        """Close the link at once, after a fault (a program is ended without waiting for it)."""
        self.close()

    def interrupt(self) -> None:  # noqa: B027 (optional hook)
        """From another thread, while this link may be read: end the peer if the transport can
        (a program's whole process group), so that a read waiting on it sees the link's end.
        The link stays open (:meth:`close` it afterwards)."""

    def peer_status(self) -> str | None:
        """How the peer ended, if the transport knows (a program's exit status), else None."""
        return None

    def _status(self) -> str:
        status = self.peer_status()
        return f" ({status})" if status else ""

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    # --- what subclasses provide --------------------------------------------------------------

    @abc.abstractmethod
    def _write(self, data: bytes) -> None:
        """Send all of ``data``."""

    @abc.abstractmethod
    def _read(self, timeout: float | None) -> bytes | None:
        """Some bytes, ``b""`` at end of file, ``None`` if nothing came within ``timeout`` s."""

    @abc.abstractmethod
    def _close(self) -> None:
        """Release the link."""

    # --- framing ------------------------------------------------------------------------------

    def _frame(self, data: bytes) -> None:
        for byte in data:
            if byte in (0x0A, 0x0D):
                if byte == 0x0A and self._after_cr:
                    self._after_cr = False
                    continue
                self._after_cr = byte == 0x0D
                self._end_line()
                continue
            self._after_cr = False
            if self._dropping:
                continue
            self._buffer.append(byte)
            if len(self._buffer) > self.max_line:
                raw = bytes(self._buffer)
                self._buffer.clear()
                self._dropping = True
                reason = f"line longer than {self.max_line} characters"
                self._push(MalformedLineError(self.name, raw, reason))

    def _end_line(self) -> None:
        raw = bytes(self._buffer)
        self._buffer.clear()
        if self._dropping:
            self._dropping = False
            return
        if not raw:
            return
        if any(not 0x20 <= byte < 0x7F for byte in raw):
            self._push(MalformedLineError(self.name, raw, "bytes that are not printable ASCII"))
        else:
            self._push(raw.decode("ascii"))

    def _push(self, line: str | MalformedLineError) -> None:
        if len(self._lines) >= MAX_STRAY:
            self._overflow += 1
        else:
            self._lines.append(line)


# --- serial ports (real boards, ptys, any pyserial URL) ----------------------------------------


class SerialTransport(Transport):
    """A serial port by device name or any pyserial URL (``/dev/ttyUSB0``, a pty, ``loop://``).

    8N1 without flow control, at ``baud`` (19200 in the contests).
    """

    def __init__(self, port: str, baud: int = 19200, max_line: int = MAX_LINE) -> None:
        import serial  # pyserial: only needed for this link

        if not isinstance(baud, int) or baud < 1:
            raise ValueError(f"baud rate must be a positive integer, not {baud!r}")
        super().__init__(port, max_line)
        try:
            self.serial = serial.serial_for_url(port, baudrate=baud, timeout=0, exclusive=None)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LinkError(f"cannot open serial port {port}: {error}") from None
        self._serial_error = serial.SerialException

    def _write(self, data: bytes) -> None:
        try:
            self.serial.write(data)
            self.serial.flush()
        except self._serial_error as error:
            raise OSError(str(error)) from None

    def _read(self, timeout: float | None) -> bytes | None:
        try:
            self.serial.timeout = timeout
            data = self.serial.read(max(1, self.serial.in_waiting))
        except self._serial_error as error:
            # pyserial reports a vanished pty or unplugged adapter this way
            raise OSError(str(error)) from None
        return data or None

    def _close(self) -> None:
        self.serial.close()


# --- TCP (the later contests: the referee listens on ports 10000+) -----------------------------


class TcpTransport(Transport):
    """A TCP connection: :meth:`connect` to a peer, or :meth:`listen` for one like the referee."""

    def __init__(self, sock: socket.socket, name: str, max_line: int = MAX_LINE) -> None:
        super().__init__(name, max_line)
        self.socket = sock
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    @classmethod
    def connect(
        cls, host: str, port: int, timeout: float = 10.0, max_line: int = MAX_LINE
    ) -> TcpTransport:
        """Connect to ``host:port``; raise :class:`LinkError` if nobody answers."""
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as error:
            raise LinkError(f"cannot connect to {host}:{port}: {error}") from None
        return cls(sock, f"{host}:{port}", max_line)

    @classmethod
    def listen(
        cls,
        port: int,
        host: str = "",
        timeout: float | None = None,
        max_line: int = MAX_LINE,
        on_ready=None,
    ) -> TcpTransport:
        """Wait for one player to connect on ``port`` (0: any free port).

        ``on_ready(port)`` is called once the socket listens, with the port actually bound.
        """
        try:
            server = socket.create_server((host, port))
        except OSError as error:
            raise LinkError(f"cannot listen on port {port}: {error}") from None
        with server:
            bound = server.getsockname()[1]
            log.info("waiting for a player on port %d", bound)
            if on_ready is not None:
                on_ready(bound)
            server.settimeout(timeout)
            try:
                sock, address = server.accept()
            except TimeoutError:
                raise LinkError(
                    f"no player connected to port {bound} within {timeout:g} s"
                ) from None
        return cls(sock, f"{address[0]}:{address[1]}", max_line)

    def _write(self, data: bytes) -> None:
        self.socket.settimeout(None)
        self.socket.sendall(data)

    def _read(self, timeout: float | None) -> bytes | None:
        self.socket.settimeout(timeout)
        try:
            return self.socket.recv(_CHUNK)
        except TimeoutError:
            return None
        except BlockingIOError:
            return None

    def _close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()


# --- a program on stdin/stdout -----------------------------------------------------------------


class ProcessTransport(Transport):
    """A program started with ``command`` (a shell-style string or an argument list).

    Its standard input and output are the link. It runs in a session of its own (its own process
    group), so that closing the link ends everything it started: its input is closed, then, if
    anything of the group is left after ``grace`` seconds, the group gets SIGTERM, and SIGKILL
    after another ``grace`` seconds. :meth:`abort` (after a fault) skips the wait for the input's
    end and starts at SIGTERM.

    Its standard error goes to ``stderr``: None for ours, a path for a file that keeps its first
    ``stderr_limit`` bytes (appending; the rest is read and dropped, so that the program never
    blocks on it), or :data:`subprocess.DEVNULL`. ``echo`` also copies it to ours.

    A command whose program is ``trax`` runs this installation's ``trax`` (the same Python), and
    the program's ``PATH`` starts with this Python's ``bin`` folder, so that a ``trax`` inside a
    shell command is this one too.
    """

    def __init__(
        self,
        command: str | list[str],
        max_line: int = MAX_LINE,
        grace: float = 1.0,
        env: dict[str, str] | None = None,
        stderr: str | Path | int | None = None,
        stderr_limit: int = 1 << 20,
        echo: bool = False,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError(f"empty command: {command!r}")
        super().__init__(argv[0] if len(argv) == 1 else " ".join(argv), max_line)
        self.grace = grace
        self.argv = argv
        env = dict(os.environ if env is None else env)
        bin_dir = str(Path(sys.executable).parent)
        env["PATH"] = os.pathsep.join([bin_dir, *filter(None, [env.get("PATH")])])
        if argv[0] == "trax":
            argv = [sys.executable, "-m", "trax_fpga.cli", *argv[1:]]
        to_file = isinstance(stderr, str | Path)
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if to_file else stderr,
                bufsize=0,
                env=env,
                start_new_session=True,
            )
        except OSError as error:
            raise LinkError(f"cannot start {argv[0]}: {error.strerror}") from None
        self._sink = None
        if to_file:
            self._sink = _StderrSink(self.process.stderr, Path(stderr), stderr_limit, echo)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        self._polite = True

    def _write(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def _read(self, timeout: float | None) -> bytes | None:
        wait = EXIT_POLL if timeout is None else min(timeout, EXIT_POLL)
        if not self._selector.select(wait):
            # Nothing to read: a program that has exited is gone (its output read to here),
            # even when a process it started keeps the pipe open.
            return b"" if self.process.poll() is not None else None
        return os.read(self.process.stdout.fileno(), _CHUNK)

    def peer_status(self) -> str | None:
        """``exited with status N``, ``killed by signal SIGSEGV`` or ``still running``."""
        try:
            code = self.process.wait(0.2)
        except subprocess.TimeoutExpired:
            return "the program is still running"
        return describe_exit(code)

    def abort(self) -> None:
        self._polite = False
        self.close()

    def interrupt(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def _close(self) -> None:
        self._selector.close()
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        if self._polite:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(self.grace)
        end_group(self.process, self.grace)
        self.process.stdout.close()
        if self._sink is not None:
            self._sink.join(self.grace)


def describe_exit(code: int) -> str:
    """A program's exit status in words (``Popen.returncode``: negative for a signal)."""
    if code >= 0:
        return f"exited with status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = str(-code)
    return f"killed by signal {name}"


def group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is alive (zombies are not)."""
    try:
        entries = os.listdir("/proc")
    except OSError:  # no /proc: ask the kernel (a zombie member counts as alive)
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False


def end_group(process: subprocess.Popen, grace: float) -> None:
    """End ``process``'s process group (it leads one): SIGTERM, then SIGKILL to whatever is left
    after ``grace`` seconds; reap the leader."""
    pgid = process.pid
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        except PermissionError:  # pragma: no cover (a member changed its user)
            pass
        deadline = time.monotonic() + grace
        while True:
            process.poll()
            if not group_alive(pgid):
                break
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        if not group_alive(pgid):
            break
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:  # pragma: no cover (unkillable: uninterruptible sleep)
        log.warning("%s: process %d does not end", process.args, pgid)


class _StderrSink(threading.Thread):
    """Copies a program's standard error to ``path`` up to ``limit`` bytes of the file."""

    def __init__(self, pipe, path: Path, limit: int, echo: bool) -> None:
        super().__init__(name=f"stderr {path.name}", daemon=True)
        self.pipe = pipe
        self.path = path
        self.limit = limit
        self.echo = echo
        self.start()

    def run(self) -> None:
        try:
            stream = open(self.path, "ab")  # noqa: SIM115 (closed below)
        except OSError as error:
            log.warning("cannot write %s: %s", self.path, error.strerror)
            stream = None
        dropped = 0
        room = self.limit - (stream.tell() if stream is not None else 0)
        try:
            while True:
                try:
                    data = os.read(self.pipe.fileno(), _CHUNK)
                except OSError:
                    break
                if not data:
                    break
                if self.echo:
                    with contextlib.suppress(OSError, ValueError):
                        sys.stderr.buffer.write(data)
                        sys.stderr.buffer.flush()
                if stream is None:
                    continue
                kept = data[: max(room, 0)]
                if kept:
                    stream.write(kept)
                    stream.flush()
                    room -= len(kept)
                dropped += len(data) - len(kept)
        finally:
            self.pipe.close()
            if stream is not None:
                if dropped:
                    stream.write(
                        f"\n[trax: {dropped} more bytes of standard error dropped]\n".encode()
                    )
                stream.close()


# --- the scripted mock -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Reply:
    """A scripted answer: ``text`` plus ``end`` (LF by default), ``delay`` seconds after the cue."""

    text: str
    delay: float = 0.0
    end: str = "\n"

    def data(self) -> bytes:
        return (self.text + self.end).encode("ascii")


@dataclasses.dataclass(frozen=True)
class Garbage:
    """Raw bytes as the answer (noise, a broken UART), ``delay`` seconds after the cue."""

    data_: bytes
    delay: float = 0.0

    def data(self) -> bytes:
        return self.data_


class _Disconnect:
    delay = 0.0

    def __repr__(self) -> str:
        return "DISCONNECT"


#: The scripted peer closes the link (after sending any replies listed before it).
DISCONNECT = _Disconnect()


class ScriptError(AssertionError):
    """The code under test sent something the script did not expect."""


class ScriptedTransport(Transport):
    """A mock peer for tests: expected lines in, scripted replies out.

    ``expect(line, *replies)`` adds a step: the next line sent must be ``line`` (else
    :class:`ScriptError`), and then each reply becomes readable after its delay (a ``str`` is a
    :class:`Reply` with no delay; :class:`Garbage` is raw bytes; :data:`DISCONNECT` closes the
    link). No reply is silence. ``push(*replies)`` makes replies readable now, without a cue.
    :meth:`assert_done` checks that every step was used. Delays are real time, so keep them short.
    """

    def __init__(self, name: str = "mock", max_line: int = MAX_LINE) -> None:
        super().__init__(name, max_line)
        self.steps: collections.deque[tuple[str, tuple]] = collections.deque()
        self.sent: list[str] = []
        self._pending: list[tuple[float, int, bytes | None]] = []  # (due, order, data or EOF)
        self._order = 0

    def expect(self, line: str, *replies: str | Reply | Garbage | _Disconnect) -> ScriptedTransport:
        self.steps.append((line, replies))
        return self

    def push(self, *replies: str | Reply | Garbage | _Disconnect) -> ScriptedTransport:
        self._schedule(replies)
        return self

    def assert_done(self) -> None:
        if self.steps:
            raise ScriptError(
                f"{self.name}: expected lines never sent: {[s for s, _ in self.steps]}"
            )

    def _schedule(self, replies: tuple) -> None:
        now = time.monotonic()
        for reply in replies:
            if isinstance(reply, str):
                reply = Reply(reply)
            data = None if reply is DISCONNECT else reply.data()
            self._pending.append((now + reply.delay, self._order, data))
            self._order += 1
        self._pending.sort()

    def _write(self, data: bytes) -> None:
        if self._eof_sent():
            raise BrokenPipeError("the scripted peer has disconnected")
        line = data.decode("ascii").rstrip("\n")
        self.sent.append(line)
        if not self.steps:
            raise ScriptError(f"{self.name}: unexpected line {line!r} after the end of the script")
        expected, replies = self.steps.popleft()
        if line != expected:
            raise ScriptError(f"{self.name}: expected {expected!r}, got {line!r}")
        self._schedule(replies)

    def _eof_sent(self) -> bool:
        return any(data is None and due <= time.monotonic() for due, _, data in self._pending)

    def _read(self, timeout: float | None) -> bytes | None:
        if not self._pending:
            if timeout is None:
                raise ScriptError(f"{self.name}: read for ever from a silent script")
            time.sleep(timeout)
            return None
        due, _, data = self._pending[0]
        wait = due - time.monotonic()
        if wait > 0:
            if timeout is not None and timeout < wait:
                time.sleep(timeout)
                return None
            time.sleep(wait)
        self._pending.pop(0)
        return b"" if data is None else data

    def _close(self) -> None:
        self._pending.clear()


# --- this process's standard input and output (``trax engine``) --------------------------------


class StdioTransport(Transport):
    """This program's standard input and output, for a player run by a referee.

    Standard input may be anything: a pipe, a terminal, a file or ``/dev/null`` (which cannot be
    waited on, and are read as they come). A closed standard input or output is a
    :class:`DisconnectedError` at once.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        super().__init__("stdio", max_line)
        if sys.stdin is None or sys.stdout is None:
            which = "input" if sys.stdin is None else "output"
            raise DisconnectedError(f"standard {which} is closed")
        try:
            self._in = sys.stdin.buffer.fileno()
            self._out = sys.stdout.buffer
            self._out.fileno()
        except (AttributeError, OSError, ValueError) as error:
            raise DisconnectedError(f"standard input or output is not usable ({error})") from None
        self._selector: selectors.BaseSelector | None = selectors.DefaultSelector()
        try:
            self._selector.register(self._in, selectors.EVENT_READ)
        except (PermissionError, ValueError, OSError):  # a regular file or /dev/null: never waits
            self._selector.close()
            self._selector = None

    def _write(self, data: bytes) -> None:
        self._out.write(data)
        self._out.flush()

    def _read(self, timeout: float | None) -> bytes | None:
        if self._selector is not None and not self._selector.select(timeout):
            return None
        return os.read(self._in, _CHUNK)

    def _close(self) -> None:
        if self._selector is not None:
            self._selector.close()
