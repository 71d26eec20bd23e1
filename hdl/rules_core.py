"""The rules core: new game, play(cell, symbol), and the verdict and outcome of each move.

It joins the :class:`~trax_fpga.hdl.board.Board` (placement, forced play, rollback, box,
overflow) and the :class:`~trax_fpga.hdl.wins.WinDetector`, keeps the side to move and the
outcome, and refuses moves once the game is won. Moves are given as window cells; mapping the
notation (relative to the box, which this core reports) to a window cell is the notation
codec's work.
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from .board import Board, BoardOp
from .legality import board_layout, check_window
from .track_rules import Command, Outcome, end_turn
from .types import Colour, Symbol, Tile, Verdict
from .wins import WinDetector

__all__ = ["Colour", "Command", "Outcome", "Phase", "RulesCore", "Verdict", "end_turn"]


class Phase(enum.Enum, shape=2):
    """What the core is doing (for cycle counts and waveforms)."""

    IDLE = 0
    BOARD = 1  # placement and forced play
    WINS = 2  # win detection


class RulesCore(wiring.Component):
    """The rules of Trax in gateware, one command at a time.

    ``cmd_valid`` with ``cmd`` = ``NEW_GAME`` empties the board (white to move); with ``PLAY``
    plays ``symbol`` at window cell (``x``, ``y``). When ``done`` pulses, ``verdict`` says
    whether the move was legal (``OVERFLOW``: not judged, the game outgrew the window; the board
    is unchanged), and ``outcome`` how the game stands. A move after a win is ``GAME_OVER``.

    Parameters
    ----------
    width, height : int
        The window size W x H (at least 3 each). A game is judged exactly while its box plus one
        ring of cells fits: box width + 2 <= W and box height + 2 <= H.
    win_hops, win_serial :
        Tiles the win detector's flood covers per clock, and whether it floods one colour at a
        time (see :class:`~trax_fpga.hdl.wins.WinDetector`).

    Members
    -------
    cmd_valid : In(1)
        Take ``cmd`` (when ``busy`` is low).
    cmd : In(Command)
    x, y : In(range(W)), In(range(H))
    symbol : In(Symbol)
    outside : In(1)
        The move names a cell beyond the ring around the box, which the window cannot name
        (``BoxMapper.outside`` of :mod:`.notation`): not adjacent (on the empty board: not the
        first move's cell). ``x`` and ``y`` are then ignored.
    busy : Out(1)
        High from the clock after ``cmd_valid`` until ``done``.
    done : Out(1)
        One-clock pulse: ``verdict``, ``outcome``, ``turn``, the board and the box are up to date.
    verdict : Out(Verdict)
    outcome : Out(Outcome)
    turn : Out(Colour)
        The side to move.
    overflow : Out(1)
        Sticky until ``NEW_GAME``: a move was refused because the game outgrew the window.
    box_x, box_y, box_w, box_h : Out(...)
        The bounding box: window cell of its min corner, and its size (0 x 0 when empty).
    empty : Out(1)
        No tile on the board.
    white, tiles, new, occupied, frontier, fit : Out(...)
        The board and its per-cell rules, as kept by :class:`~trax_fpga.hdl.board.Board`.
    rounds : Out(range(W * H))
        Forced-play rounds of the last move.
    cycles : Out(16)
        Clocks of the last command: from the clock that took it to the one before ``done``
        (``done`` is seen ``cycles`` clocks after ``cmd_valid`` was sampled).
    board_cycles, win_cycles : Out(16)
        The clocks of the last command spent in the BOARD phase (placement, forced rounds and
        the clock that finds no forced cell) and in the WINS phase (win detection).
    phase : Out(Phase)
    """

    def __init__(self, width: int, height: int, *, win_hops: int = 1, win_serial: bool = False):
        self.width, self.height = check_window(width, height)
        self.win_hops = win_hops
        self.win_serial = win_serial
        w, h = width, height
        n = w * h
        super().__init__(
            {
                "cmd_valid": In(1),
                "cmd": In(Command),
                "x": In(range(w)),
                "y": In(range(h)),
                "symbol": In(Symbol),
                "outside": In(1),
                "busy": Out(1),
                "done": Out(1),
                "verdict": Out(Verdict),
                "outcome": Out(Outcome),
                "turn": Out(Colour, init=Colour.WHITE),
                "overflow": Out(1),
                "box_x": Out(range(w)),
                "box_y": Out(range(h)),
                "box_w": Out(range(w + 1)),
                "box_h": Out(range(h + 1)),
                "empty": Out(1),
                "white": Out(data.ArrayLayout(n, 4)),
                "tiles": Out(board_layout(w, h, Tile)),
                "new": Out(n),
                "occupied": Out(n),
                "frontier": Out(n),
                "fit": Out(data.ArrayLayout(n, 6)),
                "rounds": Out(range(n)),
                "cycles": Out(16),
                "board_cycles": Out(16),
                "win_cycles": Out(16),
                "phase": Out(Phase),
            }
        )

    def elaborate(self, platform):
        m = Module()
        m.submodules.board = board = Board(self.width, self.height)
        m.submodules.wins = wins = WinDetector(
            self.width, self.height, hops=self.win_hops, serial=self.win_serial
        )

        m.d.comb += [
            board.x.eq(self.x),
            board.y.eq(self.y),
            board.symbol.eq(self.symbol),
            board.outside.eq(self.outside),
            board.op.eq(Mux(self.cmd == Command.NEW_GAME, BoardOp.NEW_GAME, BoardOp.PLAY)),
            wins.white.eq(board.white),
            wins.box_x.eq(board.box_x),
            wins.box_y.eq(board.box_y),
            wins.box_w.eq(board.box_w),
            wins.box_h.eq(board.box_h),
        ]
        for name in (
            "overflow", "box_x", "box_y", "box_w", "box_h", "empty",
            "white", "tiles", "new", "occupied", "frontier", "fit", "rounds",
        ):  # fmt: skip
            m.d.comb += getattr(self, name).eq(getattr(board, name))
        with m.If(self.cmd_valid & ~self.busy):
            m.d.sync += [self.cycles.eq(1), self.board_cycles.eq(0), self.win_cycles.eq(0)]
        with m.If(self.phase == Phase.BOARD):
            m.d.sync += [
                self.cycles.eq(self.cycles + 1),
                self.board_cycles.eq(self.board_cycles + 1),
            ]
        with m.If(self.phase == Phase.WINS):
            m.d.sync += [self.cycles.eq(self.cycles + 1), self.win_cycles.eq(self.win_cycles + 1)]

        playing = Signal()  # the command in progress is PLAY (latched: cmd may change meanwhile)
        m.d.sync += self.done.eq(0)

        def finish(verdict):
            m.d.sync += [self.verdict.eq(verdict), self.done.eq(1), self.busy.eq(0)]

        with m.FSM(name="rules_fsm"):
            with m.State("IDLE"):
                m.d.comb += self.phase.eq(Phase.IDLE)
                with m.If(self.cmd_valid):
                    with m.If(self.cmd == Command.NEW_GAME):
                        m.d.comb += board.start.eq(1)
                        m.d.sync += [
                            self.outcome.eq(Outcome.NONE),
                            self.turn.eq(Colour.WHITE),
                            self.busy.eq(1),
                            playing.eq(0),
                        ]
                        m.next = "BOARD"
                    with m.Elif(self.outcome != Outcome.NONE):
                        finish(Verdict.GAME_OVER)
                    with m.Else():
                        m.d.comb += board.start.eq(1)
                        m.d.sync += [self.busy.eq(1), playing.eq(1)]
                        m.next = "BOARD"
            with m.State("BOARD"):
                m.d.comb += self.phase.eq(Phase.BOARD)
                with m.If(board.done):
                    with m.If((board.verdict == Verdict.LEGAL) & playing):
                        m.d.comb += wins.start.eq(1)
                        m.next = "WINS"
                    with m.Else():
                        finish(board.verdict)
                        m.next = "IDLE"
            with m.State("WINS"):
                m.d.comb += self.phase.eq(Phase.WINS)
                with m.If(wins.done):
                    end_turn(m, self.turn, self.outcome, wins)
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"
        return m
