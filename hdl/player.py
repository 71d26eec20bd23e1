"""The complete contest player: a UART, the protocol engine, and the game and its search on one
block-RAM board.

Everything a board needs between its serial pins and its LEDs; the board files (``boards/``) only
add the clock, the pins and the reset.
"""

from __future__ import annotations

from amaranth import Module
from amaranth.hdl import EnableInserter
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .protocol import (
    DEFAULT_MAX_LINE,
    GameState,
    ProtocolEngine,
    SearchKind,
    check_engine_options,
)
from .track_board import check_torus
from .track_game import TrackGame, check_search_options
from .uart import UART, divisor_for

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_THINK_TIME",
    "GUESS_SHARE",
    "LED_NAMES",
    "PONDER_TIMES",
    "Player",
]

#: The search's node budget per move unless given.
DEFAULT_BUDGET = 1000

#: The search's time per move unless given, in seconds (it becomes a number of clocks). The
#: contest allows 1 s an answer, measured by the referee's computer: the answer follows the think
#: time within some 300 clocks, the two moves take about 5 ms on the serial line at 19,200 baud
#: and a USB serial adapter's latency timer up to 16 ms, so 0.8 s leaves the referee's computer
#: some 0.17 s. The open contest engines think as long (KizuNa 0.75 s), and the board gains more
#: from time than from anything else measured (docs/evaluation.md, "Time is the lever").
DEFAULT_THINK_TIME = 0.8

#: With ``ponder``: the guess of the opponent's reply searches this share of the think time
#: (1/4: 0.2 s of the opponent's time at 0.8 s; in the model, guesses of a quarter of a move
#: were right 36 % of the time against KizuNa, of an eighth 27 %: docs/ponder.md), and the
#: search after the guess at most this many think times before the opponent's move comes (a
#: real opponent answers within the contest's second; the bound keeps a simulated board's
#: work per move finite).
GUESS_SHARE = 4
PONDER_TIMES = 4

#: What each bit of ``leds`` shows, from bit 0.
LED_NAMES = ("playing", "thinking", "colour", "error")


class Player(wiring.Component):
    """A Trax player on one serial line, following the contest protocol.

    What it does with malformed or illegal input is in ``docs/protocol-policy.md``.

    Parameters
    ----------
    width, height : int
        The torus of the block-RAM board (powers of two, at least 8; a game is played exactly
        while its box plus one ring fits; see :class:`~trax_fpga.hdl.track_board.TrackBoard`).
    clk_freq : int or float
        The clock frequency in Hz (with ``threads=2`` in ``search_options``, the player's logic
        runs at half of it: its UART and think time are reckoned so).
    baud : int
        The serial line's rate (8N1), 19200 by default.
    team : str
        The two-character code answered to ``-T``.
    opening : str
        White's first move, ``"+"`` or ``"/"``.
    max_line : int
        Longer lines are ignored (see :class:`~trax_fpga.hdl.protocol.LineReader`).
    budget : int
        The most nodes the search plays per move (its ``budget`` input, when it has one).
    think_time : float
        The most seconds the search thinks per move (its ``cycle_budget`` input, when it has
        one, is ``think_time * clk_freq`` clocks); :data:`DEFAULT_THINK_TIME` (0.8 s) by
        default, inside the contest's 1 s with the serial line's time added. Whichever budget
        is spent first stops it.
    search_options : dict
        Keyword arguments of the game's search (:class:`~trax_fpga.hdl.track_game.TrackGame`:
        ``max_depth``, ``evaluation``, ``engines``, ``pv_plies``, ``move_table``,
        ``shared_table``, ``table_scores``; with more than one engine, ``budget`` is per
        engine).
    ponder : bool
        Think while the opponent does (docs/ponder.md; off by default): the guess of the
        reply searches :data:`GUESS_SHARE` of the think time, the search after it at most
        :data:`PONDER_TIMES` the think time until the opponent's move comes, and the think
        time from then on when the guess was right.

    Members
    -------
    rx : In(1)
        The serial input (idles high).
    tx : Out(1)
        The serial output (idles high).
    leds : Out(4)
        Bit 0: a game is in progress; 1: thinking; 2: the board plays white; 3: error (a
        rejected line, an illegal move or an overflow since the last command).
    game : Out(GameState)
        Where the player stands (simulation status).
    overflow : Out(1)
        The current game outgrew the window.
    answer_cycles, max_answer_cycles : Out(32)
        Clocks of the last answer and the largest since power-up (see
        :class:`~trax_fpga.hdl.protocol.ProtocolEngine`).
    rejected_lines : Out(16)
    ponder_hits, ponder_misses : Out(16)
        With ``ponder``: the guesses the opponent played and did not (see
        :class:`~trax_fpga.hdl.protocol.ProtocolEngine`).
    search_nodes, search_cycles : Out(32)
        Statistics of the last search (with ``ponder``: of the search behind the last answer,
        kept while the guess's and the ponder's searches run).
    search_depth : Out(8)
        The deepest completed iteration of that search.
    """

    def __init__(
        self,
        width: int,
        height: int,
        clk_freq: float,
        baud: int = 19200,
        team: str = "FP",
        *,
        opening: str = "+",
        max_line: int = DEFAULT_MAX_LINE,
        budget: int = DEFAULT_BUDGET,
        think_time: float = DEFAULT_THINK_TIME,
        search_options: dict | None = None,
        ponder: bool = False,
    ):
        self.width, self.height = check_torus(width, height)
        if not isinstance(clk_freq, int | float) or isinstance(clk_freq, bool) or clk_freq <= 0:
            raise ValueError(f"clock frequency must be a positive number, not {clk_freq!r}")
        self.clk_freq = clk_freq
        self.search_options = dict(search_options or {})
        check_search_options(self.search_options)
        # With two threads a logic the player's logic runs in every other clock.
        self.threads = self.search_options.get("threads", 1)
        logic_hz = clk_freq / self.threads
        self.baud = baud
        self.divisor = divisor_for(logic_hz, baud)
        if not isinstance(budget, int) or isinstance(budget, bool) or not 1 <= budget < 2**32:
            raise ValueError(
                f"search budget must be a positive integer below 2**32, not {budget!r}"
            )
        self.budget = budget
        if not isinstance(think_time, int | float) or isinstance(think_time, bool):
            raise ValueError(f"think time must be a number of seconds, not {think_time!r}")
        self.cycle_budget = round(think_time * logic_hz)
        if not 1 <= self.cycle_budget < 2**32:
            raise ValueError(f"think time {think_time!r} s is not 1 to 2**32 - 1 clocks")
        self.ponder = bool(ponder)
        self._engine_options = {"team": team, "opening": opening, "max_line": max_line}
        check_engine_options(team, opening, max_line)
        self.team = team
        super().__init__(
            {
                "rx": In(1, init=1),
                "tx": Out(1, init=1),
                "leds": Out(4),
                "game": Out(GameState),
                "overflow": Out(1),
                "answer_cycles": Out(32),
                "max_answer_cycles": Out(32),
                "rejected_lines": Out(16),
                "ponder_hits": Out(16),
                "ponder_misses": Out(16),
                "search_nodes": Out(32),
                "search_cycles": Out(32),
                "search_depth": Out(8),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height
        m.submodules.uart = uart = UART(self.divisor)
        m.submodules.engine = engine = ProtocolEngine(
            w, h, **self._engine_options, ponder=self.ponder
        )
        m.d.comb += [uart.rx.eq(self.rx), self.tx.eq(uart.tx)]
        wiring.connect(m, uart.rx_stream, engine.rx_stream)
        wiring.connect(m, engine.tx_stream, uart.tx_stream)
        m.d.comb += engine.framing_error.eq(uart.framing_error)
        m.submodules.game = game = TrackGame(w, h, **self.search_options)
        wiring.connect(m, engine.rules, game.rules)
        wiring.connect(m, engine.search, game.search)
        m.d.comb += [
            game.abort.eq(engine.search_abort),
            game.budget.eq(self.budget),
        ]
        figures = [
            (self.search_nodes, game.nodes),
            (self.search_cycles, game.cycles),
            (self.search_depth, game.depth),
        ]
        if self.ponder:  # the answer's search, not the guess's or the ponder's that follow it
            for status, live in figures:
                with m.If(engine.chosen):
                    m.d.sync += status.eq(live)
        else:
            m.d.comb += [status.eq(live) for status, live in figures]
        if self.ponder:  # the clock budget by what the search is for (docs/ponder.md)
            guess = max(1, self.cycle_budget // GUESS_SHARE)
            pondered = min(2**32 - 1, self.cycle_budget * PONDER_TIMES)
            with m.Switch(engine.search.kind):
                with m.Case(SearchKind.GUESS):
                    m.d.comb += game.cycle_budget.eq(guess)
                with m.Case(SearchKind.PONDER):
                    m.d.comb += game.cycle_budget.eq(pondered)
                with m.Default():
                    m.d.comb += game.cycle_budget.eq(self.cycle_budget)
        else:
            m.d.comb += game.cycle_budget.eq(self.cycle_budget)
        playing = (engine.game == GameState.OPPONENT) | (engine.game == GameState.BOARD)
        m.d.comb += [
            self.leds[0].eq(playing),
            self.leds[1].eq(engine.thinking),
            self.leds[2].eq(engine.colour.as_value()),
            self.leds[3].eq(engine.error),
            self.game.eq(engine.game),
            self.overflow.eq(engine.overflow),
            self.answer_cycles.eq(engine.answer_cycles),
            self.max_answer_cycles.eq(engine.max_answer_cycles),
            self.rejected_lines.eq(engine.rejected_lines),
            self.ponder_hits.eq(engine.ponder_hits),
            self.ponder_misses.eq(engine.ponder_misses),
        ]
        if self.threads == 1:
            return m
        # Two threads a logic (docs/cslow.md): all of the player's logic runs in the clocks the
        # search's does, every other one; the engines' logic in every clock.
        top = Module()
        top.submodules.player = EnableInserter({"sync": game.phase})(m)
        return top
