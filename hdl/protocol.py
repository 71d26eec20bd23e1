"""The contest protocol in gateware: lines from the UART, the commands, and the game they drive.

:class:`LineReader` splits the received bytes into lines (ended by LF, CR or CRLF; empty lines
are skipped) and says what each line is: a command (``-T``, ``-W``, ``-B``), a move in notation,
or a rejected line. :class:`ProtocolEngine` plays the game those lines ask for: it drives the
rules of the game and the search (:class:`~trax_fpga.hdl.track_game.TrackGame`) through the
interfaces :func:`rules_signature` and :func:`search_signature`, and sends the team code and the
board's moves. The policy for malformed and illegal input is in ``docs/protocol-policy.md``; in
short:

* ``-T``, ``-W`` and ``-B`` start afresh in every state (a running search is aborted).
* A rejected line (not notation, longer than ``max_line``, or with a framing error or a byte
  that is not printable ASCII) is ignored; the board keeps waiting. The error LED lights.
* A well-formed move that is illegal (or that the window cannot hold) stops the game: nothing
  is sent until the next command. A move that comes when none is expected is ignored.
* Nothing is sent once the game is won, except the board's own winning move.
"""

from __future__ import annotations

from amaranth import Cat, Module, Mux, Signal
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out
from amaranth.utils import bits_for

from .notation import BoxMapper, MoveDecoder, MoveEncoder, NotationError, move_layout
from .track_board import move_signature
from .track_rules import Command, Outcome, rules_signature
from .types import Colour, Symbol, Verdict

__all__ = [
    "DEFAULT_GAME_LOG",
    "DEFAULT_MAX_LINE",
    "GameState",
    "LineKind",
    "LineReader",
    "ProtocolEngine",
    "SearchKind",
    "check_engine_options",
    "line_layout",
    "notation_widths",
    "search_signature",
]

#: The longest line taken, in characters without the terminator (the public referee reads at
#: most 16 bytes per line).
DEFAULT_MAX_LINE = 16
#: Moves the game log of a pondering engine holds (a block RAM): a longer game stops pondering.
DEFAULT_GAME_LOG = 1024

_LF, _CR = 0x0A, 0x0D


class LineKind(enum.Enum, shape=3):
    """What a received line is."""

    TEAM = 0  # "-T"
    WHITE = 1  # "-W"
    BLACK = 2  # "-B"
    MOVE = 3  # a move in notation, in ``move``
    FAR_MOVE = 4  # a move in notation whose column or row is too big to name a window cell
    MALFORMED = 5  # neither a command nor notation
    OVERLONG = 6  # more than ``max_line`` characters
    NOISY = 7  # a framing error, or a byte that is not printable ASCII

    @property
    def command(self) -> bool:
        return self in (LineKind.TEAM, LineKind.WHITE, LineKind.BLACK)

    @property
    def rejected(self) -> bool:
        return self in (LineKind.MALFORMED, LineKind.OVERLONG, LineKind.NOISY)


class GameState(enum.Enum, shape=3):
    """Where the player stands (a status output)."""

    NONE = 0  # no game: at power-up and after -T
    OPPONENT = 1  # waiting for the opponent's move
    BOARD = 2  # the board's turn: starting a game, judging, thinking or sending
    OVER = 3  # the game was won; nothing more is sent
    HALTED = 4  # stopped on an illegal move, a window overflow or no move found


def notation_widths(width: int, height: int) -> tuple[int, int]:
    """Bits of the column and row of a move on a ``width`` x ``height`` window (and its ring)."""
    return bits_for(width + 1), bits_for(height + 1)


def line_layout(column_width: int, row_width: int) -> data.StructLayout:
    """A line: its ``kind`` and, for a move, the ``move``."""
    return data.StructLayout({"kind": LineKind, "move": move_layout(column_width, row_width)})


def _check_max_line(max_line: object) -> int:
    if not isinstance(max_line, int) or isinstance(max_line, bool) or max_line < 2:
        raise ValueError(f"max_line must be an integer of at least 2, not {max_line!r}")
    return max_line


class LineReader(wiring.Component):
    """Splits received bytes into lines and classifies each non-empty one.

    A line ends with LF or CR (so CRLF is a line and an empty line); empty lines give nothing.
    Commands are exactly ``-T``, ``-W``, ``-B`` (upper case, nothing else on the line).

    Parameters
    ----------
    column_width, row_width : int
        Widths of a decoded move's column and row (larger ones are ``FAR_MOVE``).
    max_line : int
        Longer lines (characters before the terminator) are ``OVERLONG``.

    Members
    -------
    i_stream : In(stream.Signature(8))
        Received bytes; always ready (one byte per clock at most).
    framing_error : In(1)
        Strobe: a frame was lost; the line in progress is ``NOISY``.
    o_line : Out(stream.Signature(line_layout(...), always_ready=True))
        One payload per non-empty line, 1 clock after its terminator was taken. Noise and length
        take precedence over the content: ``NOISY``, then ``OVERLONG``, then a command, then
        what the notation decoder says.
    """

    def __init__(self, column_width: int, row_width: int, *, max_line: int = DEFAULT_MAX_LINE):
        self._column_width, self._row_width = column_width, row_width
        self._max_line = _check_max_line(max_line)
        super().__init__(
            {
                "i_stream": In(stream.Signature(8)),
                "framing_error": In(1),
                "o_line": Out(
                    stream.Signature(line_layout(column_width, row_width), always_ready=True)
                ),
            }
        )

    def elaborate(self, platform):
        m = Module()
        m.submodules.decoder = decoder = MoveDecoder(self._column_width, self._row_width)
        limit = self._max_line

        byte = self.i_stream.payload
        take = self.i_stream.valid
        is_end = (byte == _LF) | (byte == _CR)
        printable = (byte >= 0x20) & (byte <= 0x7E)

        length = Signal(range(limit + 2))  # characters so far, saturating at limit + 1
        noisy = Signal()
        dash = Signal()  # the first character is '-'
        command = Signal()  # and the second one a command letter
        command_kind = Signal(LineKind)
        # The line that just ended, for the cycle in which the decoder answers.
        ended_noisy = Signal()
        ended_overlong = Signal()
        ended_command = Signal()
        ended_kind = Signal(LineKind)

        noisy_now = noisy | self.framing_error
        line_ends = take & is_end & ((length != 0) | noisy_now)
        m.d.comb += [
            self.i_stream.ready.eq(1),
            decoder.i_stream.valid.eq(take & ~is_end),
            decoder.i_stream.payload.eq(byte),
            decoder.end.eq(line_ends),
        ]

        with m.If(self.framing_error):
            m.d.sync += noisy.eq(1)
        with m.If(take & is_end):
            m.d.sync += [length.eq(0), noisy.eq(0), dash.eq(0), command.eq(0)]
            with m.If(line_ends):
                m.d.sync += [
                    ended_noisy.eq(noisy_now),
                    ended_overlong.eq(length > limit),
                    ended_command.eq(dash & command & (length == 2)),
                    ended_kind.eq(command_kind),
                ]
        with m.Elif(take):
            with m.If(length != limit + 1):
                m.d.sync += length.eq(length + 1)
            with m.If(~printable):
                m.d.sync += noisy.eq(1)
            with m.If(length == 0):
                m.d.sync += dash.eq(byte == ord("-"))
            with m.If(length == 1):
                m.d.sync += command.eq(1)
                with m.Switch(byte):
                    with m.Case(ord("T")):
                        m.d.sync += command_kind.eq(LineKind.TEAM)
                    with m.Case(ord("W")):
                        m.d.sync += command_kind.eq(LineKind.WHITE)
                    with m.Case(ord("B")):
                        m.d.sync += command_kind.eq(LineKind.BLACK)
                    with m.Default():
                        m.d.sync += command.eq(0)

        line = self.o_line
        m.d.comb += [
            line.valid.eq(decoder.valid | decoder.error),
            line.payload.move.eq(decoder.move),
        ]
        with m.If(ended_noisy):
            m.d.comb += line.payload.kind.eq(LineKind.NOISY)
        with m.Elif(ended_overlong):
            m.d.comb += line.payload.kind.eq(LineKind.OVERLONG)
        with m.Elif(ended_command):
            m.d.comb += line.payload.kind.eq(ended_kind)
        with m.Elif(decoder.valid):
            m.d.comb += line.payload.kind.eq(LineKind.MOVE)
        with m.Elif(decoder.reason == NotationError.TOO_BIG):
            m.d.comb += line.payload.kind.eq(LineKind.FAR_MOVE)
        with m.Else():
            m.d.comb += line.payload.kind.eq(LineKind.MALFORMED)
        return m


def check_window(width: object, height: object) -> tuple[int, int]:
    """Validate the size of the board the engine plays on (a torus): the box plus its empty ring
    must fit in it at least once."""
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 3:
            raise ValueError(f"window {name} must be an integer of at least 3, not {value!r}")
    return width, height


class SearchKind(enum.Enum, shape=2):
    """What a search is for (a pondering engine's, docs/ponder.md): its clock budget."""

    MOVE = 0  # the board's move: the think time
    GUESS = 1  # the opponent's likely reply, after the board's move: a short search
    PONDER = 2  # the board's move after the guessed reply, while the opponent thinks


def search_signature(width: int, height: int) -> wiring.Signature:
    """The search as the protocol engine drives it (:class:`~.track_game.TrackGame`): ``start``
    while it is idle; ``busy`` until ``done`` pulses with ``found`` and the chosen ``move`` (a
    :func:`~.track_board.move_signature`). ``kind`` (held from ``start`` on) says what the
    search is for, which sets its clock budget; ``rearm`` (a strobe, while ``busy``) restarts
    its clock budget from that clock (a ponder search whose guess was right: docs/ponder.md)."""
    check_window(width, height)
    return wiring.Signature(
        {
            "start": Out(1),
            "kind": Out(SearchKind),
            "rearm": Out(1),
            "busy": In(1),
            "done": In(1),
            "found": In(1),
            "move": In(move_signature(width, height)),
        }
    )


def _check_team(team: object) -> bytes:
    if (
        not isinstance(team, str)
        or len(team) != 2
        or not all(0x21 <= ord(char) <= 0x7E for char in team)
    ):
        raise ValueError(
            f"team code must be two printable ASCII characters other than space, not {team!r}"
        )
    return team.encode("ascii")


def _check_opening(opening: object) -> Symbol:
    if opening in ("+", "/"):
        return Symbol.of(opening)
    if opening in (Symbol.CROSS, Symbol.SLASH):
        return opening
    raise ValueError(f"the opening move must be '+' or '/' (@0+ or @0/), not {opening!r}")


def check_engine_options(team: object, opening: object, max_line: object) -> None:
    """Raise ``ValueError`` naming the bad value if :class:`ProtocolEngine` would refuse these."""
    _check_team(team)
    _check_opening(opening)
    _check_max_line(max_line)


class ProtocolEngine(wiring.Component):
    """Plays the contest protocol between a byte stream and the rules core and the search.

    ``-T`` is answered with the team code; ``-W`` starts a game as white and is answered with
    the opening move; ``-B`` starts one as black. Each legal opponent move is played on the rules
    core, the search chooses the answer in the new position, the answer is played and, if
    legal, sent (written relative to the box before it was played). See the module docstring
    for what is ignored or stops a game.

    Parameters
    ----------
    width, height : int
        The torus of the board the rules and the search play on (moves are its cells).
    team : str
        The two-character team code.
    opening : str or Symbol
        White's first move: ``"+"`` (``@0+``, the default) or ``"/"`` (``@0/``).
    max_line : int
        The longest line taken (see :class:`LineReader`).
    ponder : bool
        Think while the opponent does (docs/ponder.md; off by default): after sending its move
        the engine guesses the reply (a ``GUESS`` search), plays it, and searches its own move
        after it (a ``PONDER`` search) until the opponent's move comes; if that is the guess,
        the search goes on with the think time from then (``rearm``), else it is given up, the
        game is replayed from its log to the position before the guess, and the move is taken
        as without pondering.
    game_log : int
        With ``ponder``: the moves the game log holds (a longer game stops pondering).

    Members
    -------
    rx_stream : In(stream.Signature(8))
        Received bytes (always ready).
    framing_error : In(1)
        Strobe from the UART receiver.
    tx_stream : Out(stream.Signature(8))
        Bytes to send.
    rules : Out(rules_signature(width, height))
        To the rules of the game (:class:`~.track_game.TrackGame`'s ``rules``).
    search : Out(search_signature(width, height))
        To the search (:class:`~.track_game.TrackGame`'s ``search``), which searches the
        game's position.
    search_abort : Out(1)
        Strobe: give up the search now, a command came while it ran.
    chosen : Out(1)
        Strobe: the search's result is taken as the board's answer (its figures, ``nodes`` and
        the like, are the answer's; with ``ponder`` the guess's search follows at once).
    game : Out(GameState)
    colour : Out(Colour)
        The board's colour in the current (or last) game.
    thinking : Out(1)
        Judging the opponent's move, searching or playing the board's.
    error : Out(1)
        Sticky until the next command: a rejected line, an illegal move, an overflow or no move.
    overflow : Out(1)
        Sticky until the next command: the game outgrew the window.
    answer_cycles : Out(32)
        Clocks of the last answer: from the clock in which the terminator of the line that asked
        for it was taken to the clock in which its first byte was handed to ``tx_stream``.
    max_answer_cycles : Out(32)
        The largest ``answer_cycles`` since power-up.
    rejected_lines : Out(16)
        Count of rejected lines (wraps around).
    ponder_hits, ponder_misses : Out(16)
        With ``ponder``: the opponent's moves that were the guess, and those that were not
        (after a guess was played), since power-up (wrapping around).
    """

    def __init__(
        self,
        width: int,
        height: int,
        *,
        team: str = "FP",
        opening: str | Symbol = "+",
        max_line: int = DEFAULT_MAX_LINE,
        ponder: bool = False,
        game_log: int = DEFAULT_GAME_LOG,
    ):
        self.width, self.height = check_window(width, height)
        self.team = _check_team(team)
        self.opening = _check_opening(opening)
        self.max_line = _check_max_line(max_line)
        self.ponder = bool(ponder)
        if not isinstance(game_log, int) or isinstance(game_log, bool) or game_log < 2:
            raise ValueError(f"game_log must be an integer of at least 2, not {game_log!r}")
        self.game_log = game_log
        self.column_width, self.row_width = notation_widths(width, height)
        super().__init__(
            {
                "rx_stream": In(stream.Signature(8)),
                "framing_error": In(1),
                "tx_stream": Out(stream.Signature(8)),
                "rules": Out(rules_signature(width, height)),
                "search": Out(search_signature(width, height)),
                "search_abort": Out(1),
                "chosen": Out(1),
                "game": Out(GameState),
                "colour": Out(Colour),
                "thinking": Out(1),
                "error": Out(1),
                "overflow": Out(1),
                "answer_cycles": Out(32),
                "max_answer_cycles": Out(32),
                "rejected_lines": Out(16),
                "ponder_hits": Out(16),
                "ponder_misses": Out(16),
            }
        )

    def elaborate(self, platform):
        m = Module()
        cw, rw = self.column_width, self.row_width
        m.submodules.reader = reader = LineReader(cw, rw, max_line=self.max_line)
        m.submodules.mapper = mapper = BoxMapper(self.width, self.height, cw, rw)
        m.submodules.encoder = encoder = MoveEncoder(cw, rw)
        wiring.connect(m, wiring.flipped(self.rx_stream), reader.i_stream)
        m.d.comb += reader.framing_error.eq(self.framing_error)

        rules, search = self.rules, self.search
        line = reader.o_line
        kind = line.payload.kind

        command_pending = Signal()
        command_kind = Signal(LineKind)
        opponent_move = Signal(move_layout(cw, rw))
        play_x = Signal(range(self.width))
        play_y = Signal(range(self.height))
        play_symbol = Signal(Symbol)
        own_move = Signal(move_layout(cw, rw))
        team_index = Signal(range(len(self.team) + 1))
        timing = Signal()
        timer = Signal(32)

        # Pondering (docs/ponder.md): the game log, the guess and the box it was made in, and
        # what came while the engine pondered.
        ponder = self.ponder
        search_kind = Signal(SearchKind)
        m.d.comb += search.kind.eq(search_kind)
        box_fields = ("x", "y", "w", "h")
        mapped_box = {name: getattr(rules.box, name) for name in box_fields}
        if ponder:
            log_layout = data.StructLayout(
                {"x": range(self.width), "y": range(self.height), "symbol": Symbol}
            )
            m.submodules.game_log = game_log = Memory(
                shape=log_layout, depth=self.game_log, init=[]
            )
            log_wr, log_rd = game_log.write_port(), game_log.read_port()
            log_len = Signal(range(self.game_log + 1))
            replay_index = Signal(range(self.game_log + 1))
            guess = Signal(log_layout)
            move_pending = Signal()  # the opponent's move came (in ``opponent_move``)
            far_pending = Signal()  # a move beyond the ring came: illegal
            ponder_done = Signal()  # the ponder search ended before the opponent's move came
            # The box of the position the guess was made in, where the opponent's move is named
            # while the board is in the ponder search's tree.
            box_of_guess = {
                name: Signal.like(getattr(rules.box, name), name=f"box_of_guess_{name}")
                for name in box_fields
            }
            hit_checking = Signal()
            mapped_box = {
                name: Mux(hit_checking, box_of_guess[name], getattr(rules.box, name))
                for name in box_fields
            }

        m.d.comb += [
            rules.move.x.eq(play_x),
            rules.move.y.eq(play_y),
            rules.move.symbol.eq(play_symbol),
            mapper.box_x.eq(mapped_box["x"]),
            mapper.box_y.eq(mapped_box["y"]),
            mapper.box_w.eq(mapped_box["w"]),
            mapper.box_h.eq(mapped_box["h"]),
            mapper.column.eq(opponent_move.column),
            mapper.row.eq(opponent_move.row),
            mapper.cell_x.eq(search.move.x),
            mapper.cell_y.eq(search.move.y),
            encoder.i_move.payload.eq(own_move),
        ]

        # Bytes out: the encoder's, except in SEND_TEAM (the team code, driven there).
        m.d.comb += [
            self.tx_stream.valid.eq(encoder.o_stream.valid),
            self.tx_stream.payload.eq(encoder.o_stream.payload),
            encoder.o_stream.ready.eq(self.tx_stream.ready),
        ]

        def take_command():
            m.d.sync += [command_pending.eq(0), self.error.eq(0), self.overflow.eq(0)]
            if ponder:  # a new game, or none: nothing pondered is kept
                m.d.sync += [move_pending.eq(0), far_pending.eq(0), log_len.eq(0)]
            with m.Switch(command_kind):
                with m.Case(LineKind.TEAM):
                    m.d.sync += team_index.eq(0)
                    m.next = "SEND_TEAM"
                with m.Case(LineKind.WHITE):
                    m.d.sync += self.colour.eq(Colour.WHITE)
                    m.next = "NEW_GAME"
                with m.Default():
                    m.d.sync += self.colour.eq(Colour.BLACK)
                    m.next = "NEW_GAME"

        def halt(overflow=False):
            m.d.sync += [self.error.eq(1), timing.eq(0)]
            if overflow:
                m.d.sync += self.overflow.eq(1)
            m.next = "HALTED"

        def judge(on_legal):
            """On the rules core's ``done``: go on if legal, else stop (never send)."""
            with m.If(rules.done), m.Switch(rules.verdict):
                with m.Case(Verdict.LEGAL):
                    on_legal()
                with m.Case(Verdict.OVERFLOW):
                    halt(overflow=True)
                with m.Default():
                    halt()

        def log_move():
            """With ``ponder``: log the move just played (``play_x``, ``play_y``,
            ``play_symbol``), while the log has room."""
            if ponder:
                with m.If(log_len < self.game_log):
                    m.d.comb += [
                        log_wr.en.eq(1),
                        log_wr.addr.eq(log_len),
                        log_wr.data.x.eq(play_x),
                        log_wr.data.y.eq(play_y),
                        log_wr.data.symbol.eq(play_symbol),
                    ]
                    m.d.sync += log_len.eq(log_len + 1)

        def ponder_game():
            """The game state while pondering: the opponent's turn until its move has come."""
            m.d.comb += self.game.eq(
                Mux(move_pending | far_pending, GameState.BOARD, GameState.OPPONENT)
            )

        def take_what_came(otherwise):
            """With ``ponder``, the board at the game's position: obey a command, stop on a
            move beyond the ring, judge a move that came meanwhile, or else ``otherwise()``."""
            with m.If(command_pending):
                take_command()
            with m.Elif(far_pending):
                halt()
            with m.Elif(move_pending):
                m.d.sync += move_pending.eq(0)
                m.next = "CHECK_MOVE"
            with m.Else():
                otherwise()

        def wait_commands(state: GameState):
            m.d.comb += self.game.eq(state)
            with m.If(command_pending):
                take_command()
            with m.Else():
                m.d.sync += timing.eq(0)

        with m.FSM(name="game_fsm") as fsm:
            with m.State("IDLE"):
                wait_commands(GameState.NONE)
            with m.State("OVER"):
                wait_commands(GameState.OVER)
            with m.State("HALTED"):
                wait_commands(GameState.HALTED)

            with m.State("SEND_TEAM"):
                m.d.comb += self.game.eq(GameState.NONE)
                with m.Switch(team_index):
                    for index, char in enumerate(self.team + b"\n"):
                        with m.Case(index):
                            m.d.comb += self.tx_stream.payload.eq(char)
                m.d.comb += [self.tx_stream.valid.eq(1), encoder.o_stream.ready.eq(0)]
                with m.If(self.tx_stream.ready):
                    m.d.sync += team_index.eq(team_index + 1)
                    with m.If(team_index == len(self.team)):
                        m.next = "IDLE"

            with m.State("NEW_GAME"):
                m.d.comb += [
                    self.game.eq(GameState.BOARD),
                    rules.cmd_valid.eq(1),
                    rules.cmd.eq(Command.NEW_GAME),
                ]
                m.next = "NEW_GAME_WAIT"
            with m.State("NEW_GAME_WAIT"):
                m.d.comb += self.game.eq(GameState.BOARD)
                with m.If(rules.done):
                    with m.If(self.colour == Colour.WHITE):
                        # The opening: the first tile at the window's origin, named @0.
                        m.d.sync += [
                            play_x.eq(0),
                            play_y.eq(0),
                            play_symbol.eq(self.opening),
                            own_move.column.eq(0),
                            own_move.row.eq(0),
                            own_move.symbol.eq(self.opening),
                        ]
                        m.next = "PLAY_OWN"
                    with m.Else():
                        m.next = "WAIT_MOVE"

            with m.State("WAIT_MOVE"):
                m.d.comb += self.game.eq(GameState.OPPONENT)
                with m.If(command_pending):
                    take_command()
                with m.Elif(line.valid & (kind == LineKind.MOVE)):
                    m.d.sync += opponent_move.eq(line.payload.move)
                    m.next = "CHECK_MOVE"
                with m.Elif(line.valid & (kind == LineKind.FAR_MOVE)):
                    halt()  # names a cell beyond the ring around the box: not adjacent
                if ponder:  # (a move that came as a ponder state ended)
                    with m.Elif(far_pending):
                        halt()
                    with m.Elif(move_pending):
                        m.d.sync += move_pending.eq(0)
                        m.next = "CHECK_MOVE"
            with m.State("CHECK_MOVE"):
                m.d.comb += [self.game.eq(GameState.BOARD), self.thinking.eq(1)]
                with m.If(mapper.outside):
                    halt()
                with m.Elif(mapper.wrapped):
                    halt(overflow=True)
                with m.Else():
                    m.d.sync += [
                        play_x.eq(mapper.window_x),
                        play_y.eq(mapper.window_y),
                        play_symbol.eq(opponent_move.symbol),
                    ]
                    m.next = "PLAY_OPPONENT"
            with m.State("PLAY_OPPONENT"):
                m.d.comb += [
                    self.game.eq(GameState.BOARD),
                    self.thinking.eq(1),
                    rules.cmd_valid.eq(1),
                    rules.cmd.eq(Command.PLAY),
                ]
                m.next = "JUDGE_OPPONENT"
            with m.State("JUDGE_OPPONENT"):
                m.d.comb += [self.game.eq(GameState.BOARD), self.thinking.eq(1)]

                def opponent_legal():
                    log_move()
                    with m.If(rules.outcome != Outcome.NONE):
                        m.d.sync += timing.eq(0)
                        m.next = "OVER"
                    with m.Else():
                        m.d.sync += search_kind.eq(SearchKind.MOVE)
                        m.next = "THINK"

                judge(opponent_legal)

            with m.State("THINK"):
                m.d.comb += [self.game.eq(GameState.BOARD), self.thinking.eq(1)]
                with m.If(command_pending):
                    m.d.comb += self.search_abort.eq(1)
                    take_command()
                with m.Elif(~search.busy):
                    m.d.comb += search.start.eq(1)
                    m.next = "SEARCHING"
            with m.State("SEARCHING"):
                m.d.comb += [self.game.eq(GameState.BOARD), self.thinking.eq(1)]
                with m.If(command_pending):
                    m.d.comb += self.search_abort.eq(1)
                    take_command()
                with m.Elif(search.done):
                    m.next = "CHOSEN"
            with m.State("CHOSEN"):
                m.d.comb += [
                    self.game.eq(GameState.BOARD),
                    self.thinking.eq(1),
                    self.chosen.eq(1),
                ]
                with m.If(search.found):
                    m.d.sync += [
                        play_x.eq(search.move.x),
                        play_y.eq(search.move.y),
                        play_symbol.eq(search.move.symbol),
                        own_move.column.eq(mapper.cell_column),  # named before it is played
                        own_move.row.eq(mapper.cell_row),
                        own_move.symbol.eq(search.move.symbol),
                    ]
                    m.next = "PLAY_OWN"
                with m.Else():
                    halt()
            with m.State("PLAY_OWN"):
                m.d.comb += [
                    self.game.eq(GameState.BOARD),
                    self.thinking.eq(1),
                    rules.cmd_valid.eq(1),
                    rules.cmd.eq(Command.PLAY),
                ]
                m.next = "JUDGE_OWN"
            with m.State("JUDGE_OWN"):
                m.d.comb += [self.game.eq(GameState.BOARD), self.thinking.eq(1)]

                def own_legal():
                    log_move()
                    m.next = "SEND_MOVE"

                judge(own_legal)

            with m.State("SEND_MOVE"):
                m.d.comb += [self.game.eq(GameState.BOARD), encoder.i_move.valid.eq(1)]
                with m.If(encoder.i_move.ready):
                    m.next = "SENDING"
            with m.State("SENDING"):
                m.d.comb += self.game.eq(GameState.BOARD)
                with m.If(encoder.i_move.ready):  # the encoder is idle again: all handed over
                    with m.If(command_pending):
                        take_command()
                    with m.Elif(rules.outcome != Outcome.NONE):
                        m.next = "OVER"
                    with m.Else():
                        if ponder:
                            with m.If(log_len < self.game_log):  # every move so far logged
                                m.d.sync += [
                                    search_kind.eq(SearchKind.GUESS),
                                    move_pending.eq(0),
                                    far_pending.eq(0),
                                    ponder_done.eq(0),
                                    *(
                                        box_of_guess[n].eq(getattr(rules.box, n))
                                        for n in box_fields
                                    ),
                                ]
                                m.next = "GUESS"
                            with m.Else():
                                m.next = "WAIT_MOVE"
                        else:
                            m.next = "WAIT_MOVE"

            if ponder:  # docs/ponder.md

                def wait_move():
                    m.next = "WAIT_MOVE"

                with m.State("GUESS"):  # the board's move is sent: guess the reply

                    def start_guess():
                        with m.If(~search.busy):
                            m.d.comb += search.start.eq(1)
                            m.next = "GUESSING"

                    ponder_game()
                    take_what_came(start_guess)
                with m.State("GUESSING"):
                    ponder_game()
                    with m.If(command_pending):
                        m.d.comb += self.search_abort.eq(1)
                        take_command()
                    with m.Elif(move_pending | far_pending):
                        m.d.comb += self.search_abort.eq(1)
                        m.next = "UNWIND"
                    with m.Elif(search.done):
                        with m.If(search.found):
                            m.d.sync += [
                                guess.x.eq(search.move.x),
                                guess.y.eq(search.move.y),
                                guess.symbol.eq(search.move.symbol),
                                play_x.eq(search.move.x),
                                play_y.eq(search.move.y),
                                play_symbol.eq(search.move.symbol),
                            ]
                            m.next = "COMMIT"
                        with m.Else():
                            m.next = "WAIT_MOVE"
                with m.State("UNWIND"):  # the guess given up: the board back at the game
                    ponder_game()
                    with m.If(~search.busy & ~rules.busy):
                        take_what_came(wait_move)
                with m.State("COMMIT"):  # play the guess as the opponent's move
                    ponder_game()
                    m.d.comb += [rules.cmd_valid.eq(1), rules.cmd.eq(Command.PLAY)]
                    m.next = "COMMIT_WAIT"
                with m.State("COMMIT_WAIT"):
                    ponder_game()
                    with m.If(rules.done):
                        ended = (rules.verdict != Verdict.LEGAL) | (rules.outcome != Outcome.NONE)
                        with m.If(ended):  # the guess ends the game: back to before it
                            m.next = "REPLAY"
                        with m.Elif(command_pending):
                            take_command()
                        with m.Elif(move_pending | far_pending):
                            m.next = "HIT_CHECK"
                        with m.Else():
                            m.d.sync += search_kind.eq(SearchKind.PONDER)
                            m.next = "PONDER_START"
                with m.State("PONDER_START"):
                    ponder_game()
                    with m.If(command_pending):
                        take_command()
                    with m.Elif(move_pending | far_pending):
                        m.next = "HIT_CHECK"
                    with m.Elif(~search.busy):
                        m.d.comb += search.start.eq(1)
                        m.next = "PONDERING"
                with m.State("PONDERING"):  # the board's move after the guess, searched
                    ponder_game()
                    with m.If(search.done):  # (it may end before the opponent's move comes)
                        m.d.sync += ponder_done.eq(1)
                    with m.If(command_pending):
                        m.d.comb += self.search_abort.eq(1)
                        take_command()
                    with m.Elif(move_pending | far_pending):
                        m.next = "HIT_CHECK"
                with m.State("HIT_CHECK"):  # the opponent's move, named where it was guessed
                    m.d.comb += [
                        self.game.eq(GameState.BOARD),
                        self.thinking.eq(1),
                        hit_checking.eq(1),
                    ]
                    with m.If(search.done):
                        m.d.sync += ponder_done.eq(1)
                    hit = (
                        move_pending
                        & ~far_pending
                        & ~mapper.outside
                        & ~mapper.wrapped
                        & (mapper.window_x == guess.x)
                        & (mapper.window_y == guess.y)
                        & (opponent_move.symbol == guess.symbol)
                    )
                    with m.If(hit):  # the guess was the move: it stays played
                        log_move()  # (``play_*`` still hold the guess)
                        m.d.sync += [
                            move_pending.eq(0),
                            search_kind.eq(SearchKind.MOVE),
                            self.ponder_hits.eq(self.ponder_hits + 1),
                        ]
                        m.next = "REARM"
                    with m.Else():  # back to before the guess, then take the move as ever
                        m.d.comb += self.search_abort.eq(search.busy)
                        m.d.sync += self.ponder_misses.eq(self.ponder_misses + 1)
                        m.next = "REPLAY"
                with m.State("REARM"):  # the ponder search is the board's search now
                    m.d.comb += [self.game.eq(GameState.BOARD), self.thinking.eq(1)]
                    with m.If(ponder_done | search.done):
                        m.next = "CHOSEN"
                    with m.Elif(search.busy):
                        m.d.comb += search.rearm.eq(1)  # the think time from now
                        m.next = "SEARCHING"
                    with m.Else():  # (the guess was played, its search not started yet)
                        m.next = "THINK"
                with m.State("REPLAY"):  # the game again from its log, as before the guess
                    ponder_game()
                    m.d.comb += [rules.cmd_valid.eq(1), rules.cmd.eq(Command.NEW_GAME)]
                    m.next = "REPLAY_WAIT"
                with m.State("REPLAY_WAIT"):
                    ponder_game()
                    with m.If(rules.done):
                        m.d.sync += replay_index.eq(0)
                        m.next = "REPLAY_READ"
                with m.State("REPLAY_READ"):
                    ponder_game()
                    m.d.comb += log_rd.addr.eq(replay_index)
                    with m.If(replay_index == log_len):  # replayed
                        take_what_came(wait_move)
                    with m.Else():
                        m.next = "REPLAY_PLAY"
                with m.State("REPLAY_PLAY"):
                    ponder_game()
                    m.d.sync += [
                        play_x.eq(log_rd.data.x),
                        play_y.eq(log_rd.data.y),
                        play_symbol.eq(log_rd.data.symbol),
                    ]
                    m.next = "REPLAY_CMD"
                with m.State("REPLAY_CMD"):
                    ponder_game()
                    m.d.comb += [rules.cmd_valid.eq(1), rules.cmd.eq(Command.PLAY)]
                    m.next = "REPLAY_JUDGE"
                with m.State("REPLAY_JUDGE"):
                    ponder_game()
                    with m.If(rules.done):
                        with m.If(rules.verdict == Verdict.LEGAL):
                            m.d.sync += replay_index.eq(replay_index + 1)
                            m.next = "REPLAY_READ"
                        with m.Else():  # (a logged move is legal: never)
                            halt()

        if ponder:
            # A move (or a move beyond the ring) that comes while the engine ponders waits for
            # the state that takes it; a second one before that is ignored.
            pondering = Cat(
                fsm.ongoing(state)
                for state in (
                    "GUESS", "GUESSING", "UNWIND", "COMMIT", "COMMIT_WAIT", "PONDER_START",
                    "PONDERING", "REPLAY", "REPLAY_WAIT", "REPLAY_READ", "REPLAY_PLAY",
                    "REPLAY_CMD", "REPLAY_JUDGE",
                )
            ).any()  # fmt: skip
            with m.If(pondering & line.valid & ~move_pending & ~far_pending):
                with m.If(kind == LineKind.MOVE):
                    m.d.sync += [opponent_move.eq(line.payload.move), move_pending.eq(1)]
                with m.Elif(kind == LineKind.FAR_MOVE):
                    m.d.sync += far_pending.eq(1)

        # Lines that ask for an answer start the answer clock; the first byte out stops it. The
        # clock counts only while it runs, so that a player waiting for a line is at a fixed
        # point (a simulation of it can sleep until the next byte: sim/harness.cpp).
        with m.If(timing):
            m.d.sync += timer.eq(timer + 1)
        with m.If(timing & self.tx_stream.valid & self.tx_stream.ready):
            m.d.sync += [timing.eq(0), self.answer_cycles.eq(timer)]
            with m.If(timer > self.max_answer_cycles):
                m.d.sync += self.max_answer_cycles.eq(timer)
        with m.If(line.valid):
            with m.If(
                (kind == LineKind.TEAM) | (kind == LineKind.WHITE) | (kind == LineKind.BLACK)
            ):
                m.d.sync += [
                    command_pending.eq(1),
                    command_kind.eq(kind),
                    timing.eq(kind != LineKind.BLACK),
                    timer.eq(1),
                ]
            waiting = (self.game == GameState.OPPONENT) & ~command_pending
            with m.If((kind == LineKind.MOVE) & waiting):
                m.d.sync += [timing.eq(1), timer.eq(1)]
            rejected = (
                (kind == LineKind.MALFORMED)
                | (kind == LineKind.OVERLONG)
                | (kind == LineKind.NOISY)
            )
            with m.If(rejected):
                m.d.sync += [self.error.eq(1), self.rejected_lines.eq(self.rejected_lines + 1)]
        return m
