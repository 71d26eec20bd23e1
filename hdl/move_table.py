"""The table of best moves, one for many engines (host/movetable.py specifies an entry's use).

A :class:`~.track_search.TrackSearch` with ``move_table=N`` holds its own table in block RAM
and reads it in the clock after it settles a position's key. With ``shared_table=True`` it
holds none: it asks a :class:`SharedMoveTable` through its ``table`` port
(:func:`table_port_signature`), and a :class:`~.parallel_search.ParallelSearch` puts one beside
its engines, so that what one engine learnt orders the others' moves too.

The port is a request and an answer (the engines sit across the chip: an engine sends its
requests from registers and registers the answers on arrival):

- ``probe`` pulses with ``probe_slot``: read that slot. The memory is addressed in that clock
  when no other engine's read goes first (else in a later one), and in the clock after it
  ``answer`` pulses with the ``entry`` read (the memory's output). An engine asks again only
  once answered.
- ``store`` pulses with ``store_slot`` and ``store_entry``: write it, a clock later or after the
  other engines' pending writes. A second store before the first is written replaces it (an
  entry only orders moves, so one lost costs nodes, never a wrong score).
- ``clearing``: the table is being emptied (after every search, while the engines are idle);
  a search waits for it before its first node.

With ``scores`` (host/movetable.py's ``MoveTable(scores=True)``) an entry holds the value its
node returned too, the value's kind and the side to move, and its tag is every bit of the key
above the slot's (:func:`table_tag_bits`): the table then settles nodes, not only orders moves.

Reads and writes are each taken one a clock, the engines in turn (round robin). A read sees a
write of the same clock. With one engine a write is in the table before any later read of it,
so the engine searches as with its own table, node for node.
"""

from amaranth import Cat, Module, Mux, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from .scores import signed_score
from .track_board import KEY_BITS, move_layout

__all__ = [
    "KEY_BITS",
    "TABLE_TAG_BITS",
    "SharedMoveTable",
    "ValueKind",
    "slot_bits",
    "table_entry_layout",
    "table_port_signature",
    "table_tag_bits",
]

#: The tag bits of an entry of the table of best moves: the key's bits above its slot's
#: (host/movetable.py's ``TAG_BITS``).
TABLE_TAG_BITS = 8


class ValueKind(enum.Enum, shape=2):
    """What an entry's value is (host/movetable.py's kinds): the node's value, at least it (the
    node failed high), at most it (the node failed low)."""

    EXACT = 0
    LOWER = 1
    UPPER = 2


def slot_bits(entries: int) -> int:
    """The bits of a slot of a table of ``entries`` (a power of two)."""
    return entries.bit_length() - 1


def table_tag_bits(entries: int, scores: bool = False) -> int:
    """The tag bits of a table of ``entries``: ``TABLE_TAG_BITS``, or with ``scores`` every bit
    of the key above the slot's (host/movetable.py's ``score_tag_bits``)."""
    return KEY_BITS - slot_bits(entries) if scores else TABLE_TAG_BITS


def table_entry_layout(
    columns: int, rows: int, entries: int, max_depth: int, *, scores: bool = False
) -> data.StructLayout:
    """An entry: the best move found at a position, the key's tag bits, and the plies searched
    below that position plus one (0: the entry is empty); with ``scores``, the value the node
    returned (a win's plies counted from the node), its kind and the side to move (a colour)."""
    fields = {
        "move": move_layout(columns, rows),
        "tag": table_tag_bits(entries, scores),
        "left": range(max_depth + 1),
    }
    if scores:
        fields |= {"value": signed_score(), "kind": ValueKind, "turn": 1}
    return data.StructLayout(fields)


def table_port_signature(
    columns: int, rows: int, entries: int, max_depth: int, *, scores: bool = False
):
    """An engine's port to a shared table (from the engine's side; see the module's text)."""
    entry = table_entry_layout(columns, rows, entries, max_depth, scores=scores)
    return wiring.Signature(
        {
            "probe": Out(1),
            "probe_slot": Out(slot_bits(entries)),
            "answer": In(1),
            "entry": In(entry),
            "store": Out(1),
            "store_slot": Out(slot_bits(entries)),
            "store_entry": Out(entry),
            "clearing": In(1),
        }
    )


class SharedMoveTable(wiring.Component):
    """One table of best moves of ``entries`` entries for ``engines`` engines, in block RAM
    (with ``scores``, and of their values).

    Members
    -------
    ports : In(table_port_signature(...)).array(engines)
        An engine's port each.
    clear : In(1)
        Pulse while no engine searches: empty the table, a slot a clock (``clearing`` until
        done). The writes still pending are dropped.
    """

    def __init__(
        self,
        columns: int,
        rows: int,
        entries: int,
        max_depth: int,
        engines: int,
        *,
        scores: bool = False,
    ):
        if entries < 2 or entries & (entries - 1):
            raise ValueError(f"entries must be a power of two from 2, not {entries!r}")
        if engines < 1:
            raise ValueError(f"engines must be at least 1, not {engines!r}")
        self.columns, self.rows = columns, rows
        self.entries, self.max_depth, self.engines = entries, max_depth, engines
        self.scores = bool(scores)
        port = table_port_signature(columns, rows, entries, max_depth, scores=self.scores)
        super().__init__({"ports": In(port).array(engines), "clear": In(1)})

    def elaborate(self, platform):
        m = Module()
        n, entries = self.engines, self.entries
        layout = table_entry_layout(
            self.columns, self.rows, entries, self.max_depth, scores=self.scores
        )
        m.submodules.memory = memory = Memory(shape=layout, depth=entries, init=[])
        ports = list(self.ports)

        # Reads: a request is granted in the clock it arrives, or kept pending until it is;
        # the memory's output goes to the engine a clock later, registered at its end.
        write = memory.write_port()
        read = memory.read_port(transparent_for=(write,))
        asking = Signal(n)  # a new request in this clock
        m.d.comb += asking.eq(Cat(port.probe for port in ports))
        reading = Signal(n)  # pending requests
        read_slots = [Signal(slot_bits(entries), name=f"read_slot_{i}") for i in range(n)]
        requested = [Mux(asking[i], port.probe_slot, read_slots[i]) for i, port in enumerate(ports)]
        read_any, read_index = round_robin(m, reading | asking, name="read")
        answering = Signal(n)  # whose entry is in the memory's output
        m.d.sync += answering.eq(0)
        with m.If(read_any):
            m.d.comb += read.addr.eq(select(m, requested, read_index, name="read_addr"))
            m.d.sync += answering.bit_select(read_index, 1).eq(1)
        for i, port in enumerate(ports):
            m.d.comb += [port.answer.eq(answering[i]), port.entry.eq(read.data)]
            granted = read_any & (read_index == i)
            with m.If(granted):
                m.d.sync += reading[i].eq(0)
            with m.Elif(port.probe):  # (an engine asks again only once answered)
                m.d.sync += [reading[i].eq(1), read_slots[i].eq(port.probe_slot)]

        # Writes: a pending store per engine (a newer one replaces it); emptying comes first.
        storing = Signal(n)
        store_slots = [Signal(slot_bits(entries), name=f"store_slot_{i}") for i in range(n)]
        store_entries = [Signal(layout, name=f"store_entry_{i}") for i in range(n)]
        store_any, store_index = round_robin(m, storing, name="store")
        clearing = Signal()
        clear_slot = Signal(slot_bits(entries))
        with m.If(clearing):
            m.d.comb += [write.addr.eq(clear_slot), write.en.eq(1)]
            m.d.sync += clear_slot.eq(clear_slot + 1)
            with m.If(clear_slot == entries - 1):
                m.d.sync += clearing.eq(0)
        with m.Elif(store_any):
            m.d.comb += [
                write.addr.eq(select(m, store_slots, store_index, name="store_addr")),
                write.data.eq(select(m, store_entries, store_index, name="store_data")),
                write.en.eq(1),
            ]
            m.d.sync += storing.bit_select(store_index, 1).eq(0)
        for i, port in enumerate(ports):
            m.d.comb += port.clearing.eq(clearing)
            with m.If(port.store):
                m.d.sync += [
                    storing[i].eq(1),
                    store_slots[i].eq(port.store_slot),
                    store_entries[i].eq(port.store_entry),
                ]
        with m.If(self.clear):
            m.d.sync += [clearing.eq(1), clear_slot.eq(0), storing.eq(0)]
        return m


def round_robin(m, requests, *, name):
    """The request granted in this clock: the first set after the last one granted (a
    register), in turn. Returns whether any is set and its index."""
    n = len(requests)
    if n == 1:
        return requests[0], Signal(range(2), name=f"{name}_index")  # (always 0)
    last = Signal(range(n), name=f"{name}_last")
    index = Signal(range(n), name=f"{name}_index")
    granted = Signal(name=f"{name}_any")
    with m.Switch(last):
        for previous in range(n):
            with m.Case(previous):
                order = [(previous + 1 + k) % n for k in range(n)]
                for i in reversed(order):  # (the later statement wins: the first in turn)
                    with m.If(requests[i]):
                        m.d.comb += [index.eq(i), granted.eq(1)]
    with m.If(granted):
        m.d.sync += last.eq(index)
    return granted, index


def select(m, values, index, *, name):
    """``values[index]``, as a signal."""
    out = Signal.like(values[0], name=name)
    if len(values) == 1:
        m.d.comb += out.eq(values[0])
        return out
    with m.Switch(index):
        for i, value in enumerate(values):
            with m.Case(i):
                m.d.comb += out.eq(value)
    return out
