"""The search's leaf evaluation in gateware: corners and loop attacks on every cell at once.

This is the gateware of :mod:`trax_fpga.host.hweval` (read it for the shapes and the formula).
Every cell tests every shape in parallel from the board's white-edge planes and their torus
shifts (:mod:`.planes`); the four feature planes (corners and attack anchors of each colour) are
registered, then counted by trees with a register every few levels, and the score is formed
from the counts. The latency is fixed (``latency`` clocks from ``start`` to ``ready``), so the
search starts it as soon as the forced plays of a move are complete and finds it ready when the
win detection (which takes longer, almost always) is over.

Why shapes and not tracks: a shape is a conjunction over a few neighbouring cells, so it costs a
few LUTs per cell with nearest-neighbour wiring, like the rest of the board. Pairing the two
ends of every track (what the software player's evaluation needs) would need a label per track
per cell and whole-track propagation.
"""

from amaranth import Module, Mux, Signal, Value, signed
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from ..host.hweval import ATTACK, ATTACK_WIN, CORNER, POSITIONAL_LIMIT
from .legality import check_window
from .planes import Planes
from .types import SCORE_BITS, Colour, signed_score

__all__ = ["SCORE_BITS", "Evaluation", "signed_score"]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
#: The axis along which the tiles of an attack facing each direction lie (host.hweval.AXIS).
AXIS = {NORTH: EAST, SOUTH: EAST, EAST: SOUTH, WEST: SOUTH}
#: Tree levels between two registers of the counting trees.
LEVELS_PER_STAGE = 3


class Evaluation(wiring.Component):
    """Score a position for its side to move, and say whether that side must defend.

    Parameters
    ----------
    width, height : int
        The window size.

    Members
    -------
    white : In(ArrayLayout(W*H, 4))
        The position (white-edge planes), held steady from ``start`` until ``ready``.
    turn : In(Colour)
        The side to move, held like ``white``.
    start : In(1)
        Pulse: evaluate ``white``.
    ready : Out(1)
        High from ``latency`` clocks after the last ``start`` until the next: the outputs below
        are those of that position.
    score : Out(signed)
        ``host.hweval.hw_evaluate`` of the position.
    threatened : Out(1)
        The side to move's opponent anchors a loop attack.
    corners_white, corners_black : Out(range(W*H + 1))
        Corners of each colour.
    attacks_white, attacks_black : Out(2)
        Cells anchoring an attack of each colour, counted up to 2.
    """

    def __init__(self, width: int, height: int):
        self.width, self.height = check_window(width, height)
        n = width * height
        self.latency = 2 + _stages(n)
        super().__init__(
            {
                "white": In(data.ArrayLayout(n, 4)),
                "turn": In(Colour),
                "start": In(1),
                "ready": Out(1),
                "score": Out(signed_score()),
                "threatened": Out(1),
                "corners_white": Out(range(n + 1)),
                "corners_black": Out(range(n + 1)),
                "attacks_white": Out(2),
                "attacks_black": Out(2),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h, n = self.width, self.height, self.width * self.height
        planes = Planes(w, h)
        white = [self.white[d] for d in range(4)]
        occupied = Signal(n)
        m.d.comb += occupied.eq(white[0] | white[1] | white[2] | white[3])
        empty = ~occupied

        def at(plane, *steps):
            """Each cell gets the bit of the cell reached by ``steps`` (directions) from it."""
            for d in steps:
                plane = planes.from_neighbour(plane, d)
            return plane

        feature_planes = []
        for colour in (Colour.WHITE, Colour.BLACK):
            if colour == Colour.WHITE:
                edge = white
            else:
                edge = [occupied & ~white[d] for d in range(4)]
            curve = white[NORTH] ^ white[SOUTH]
            corner = occupied & curve
            for d in range(4):
                corner = corner & (~edge[d] | at(empty, d))
            anchor = 0
            for facing, axis in AXIS.items():
                back = axis ^ 2
                first = edge[facing] & edge[axis]
                last = edge[back] & edge[facing]
                straight = edge[back] & edge[axis]
                open_here = at(empty, facing)
                narrow = first & at(last, axis) & open_here & at(empty, axis, facing)
                wide = (
                    first
                    & at(straight, axis)
                    & at(last, axis, axis)
                    & open_here
                    & at(empty, axis, facing)
                    & at(empty, axis, axis, facing)
                )
                anchor = anchor | narrow | wide
            feature_planes.append((corner, anchor))

        # Stage 1: the feature planes.
        registered = []
        for name, (corner, anchor) in zip(("white", "black"), feature_planes, strict=True):
            corner_reg = Signal(n, name=f"corner_{name}")
            anchor_reg = Signal(n, name=f"anchor_{name}")
            m.d.sync += [corner_reg.eq(corner), anchor_reg.eq(anchor)]
            registered.append((corner_reg, anchor_reg))

        # Stages 2..: the counts.
        counts = []
        for corner_reg, anchor_reg in registered:
            corners = _tree(m, [(corner_reg[i],) for i in range(n)], _add)[0]
            any_, two = _tree(m, [(anchor_reg[i], 0) for i in range(n)], _any_two)
            counts.append((corners, any_, two))
        (c_white, a_white, t_white), (c_black, a_black, t_black) = counts
        m.d.comb += [
            self.corners_white.eq(c_white),
            self.corners_black.eq(c_black),
            self.attacks_white.eq(Mux(t_white, 2, a_white)),
            self.attacks_black.eq(Mux(t_black, 2, a_black)),
        ]

        # Last stage: the score for the side to move.
        white_moves = self.turn == Colour.WHITE
        own_attack = Mux(white_moves, a_white, a_black)
        their_attack = Mux(white_moves, a_black, a_white)
        their_two = Mux(white_moves, t_black, t_white)
        wide_shape = signed(max(n.bit_length() + 8, 16))
        signed_white, signed_black = Signal(wide_shape), Signal(wide_shape)
        m.d.comb += [signed_white.eq(c_white), signed_black.eq(c_black)]
        corner_diff = Signal(wide_shape)
        m.d.comb += corner_diff.eq(
            Mux(white_moves, signed_white - signed_black, signed_black - signed_white)
        )
        positional = Signal(wide_shape)
        m.d.comb += positional.eq(_times(corner_diff, CORNER) - Mux(their_attack, ATTACK, 0))
        clamped = Mux(
            positional > POSITIONAL_LIMIT,
            POSITIONAL_LIMIT,
            Mux(positional < -POSITIONAL_LIMIT, -POSITIONAL_LIMIT, positional),
        )
        m.d.sync += [
            self.score.eq(Mux(own_attack, ATTACK_WIN, Mux(their_two, -ATTACK_WIN, clamped))),
            self.threatened.eq(their_attack),
        ]

        # The start pulse, delayed through the stages.
        pending = Signal(self.latency - 1)
        m.d.sync += pending.eq(pending << 1)
        with m.If(self.start):
            m.d.sync += [pending.eq(1), self.ready.eq(0)]
        with m.Elif(pending[-1]):
            m.d.sync += self.ready.eq(1)
        return m


def _times(value, constant: int):
    """``value * constant`` as a sum of shifts (no multiplier block: the HX8K has none)."""
    if constant < 0:
        raise ValueError("constant must not be negative")
    terms = [value << bit for bit in range(constant.bit_length()) if constant >> bit & 1]
    return sum(terms[1:], terms[0]) if terms else 0


def _stages(n: int) -> int:
    """The registers a counting tree over ``n`` leaves inserts (see :func:`_tree`)."""
    levels = max(0, (n - 1).bit_length())
    return levels // LEVELS_PER_STAGE


def _add(a, b):
    return (a[0] + b[0],)


def _any_two(a, b):
    """Merge (at least one, at least two) of two halves."""
    return (a[0] | b[0], a[1] | b[1] | (a[0] & b[0]))


def _tree(m, leaves, combine):
    """Reduce ``leaves`` (tuples of values) pairwise by ``combine``, with a register after every
    ``LEVELS_PER_STAGE`` levels; the result is combinational after the last register."""
    level = 0
    while len(leaves) > 1:
        merged = [combine(a, b) for a, b in zip(leaves[0::2], leaves[1::2], strict=False)]
        if len(leaves) % 2:
            merged.append(leaves[-1])
        level += 1
        if level % LEVELS_PER_STAGE == 0:
            staged = []
            for values in merged:
                regs = []
                for v in values:
                    reg = Signal(Value.cast(v).shape())
                    m.d.sync += reg.eq(v)
                    regs.append(reg)
                staged.append(tuple(regs))
            merged = staged
        leaves = merged
    return leaves[0]
