"""`trax engine --search model`: the gateware search's model as a contest engine (issue 12).

Without a seed every move must be exactly the model's (``hw_search`` with ``board="track"`` on
the 64x64 torus at the same nodes and depth, with the ULX3S board file's table of best moves and
their values unless told otherwise), so exactly the board's; with a seed only the first plies
vary, among near-equal moves, and the rest is the model's again.
"""

import json
import re
import sys

import pytest

from trax_fpga.cli import main
from trax_fpga.host.engine import (
    DEFAULT_MODEL_TABLE,
    DEFAULT_SHAPES,
    MODEL_VARIED_MARGIN,
    VARIED_PLIES,
    EngineSession,
    ModelChooser,
    MoveChooser,
    gives_a_win,
)
from trax_fpga.host.fastmodel import model_search
from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import MATE_BOUND, RESEARCH_CUT, RESEARCH_NEWEST, hw_search
from trax_fpga.host.notation import Move
from trax_fpga.host.players import EnginePlayer, ProtocolPlayer
from trax_fpga.host.position import Position
from trax_fpga.host.referee import Referee
from trax_fpga.host.tiles import Colour
from trax_fpga.host.trackeval import track_features, track_score
from trax_fpga.host.transport import ProcessTransport

from .test_search import TACTICS

NODES, DEPTH = 150, 3
MODEL = [
    sys.executable,
    *("-m", "trax_fpga.cli", "-v", "engine", "--search", "model"),
    *("--nodes", str(NODES), "--depth", str(DEPTH), "--team", "HW"),
]


#: The model's table by default: the board file's (its entries, with their values), and its
#: evaluation: the tracks' shapes by the board files' table.
TABLE = {"move_table": DEFAULT_MODEL_TABLE, "table_scores": True, "shapes": DEFAULT_SHAPES}
#: ... and its search order: the attack cut and newest first (the model's research flags 3).
ORDER = RESEARCH_CUT | RESEARCH_NEWEST


def model_move(position: Position, nodes: int = NODES, depth: int = DEPTH):
    return hw_search(position, 64, 64, nodes, depth, board="track", research=ORDER, **TABLE).move


def test_a_whole_game_through_the_protocol_is_the_models_move_for_move():
    program = ProtocolPlayer(ProcessTransport(MODEL, max_line=64), "model")
    try:
        program.wait_ready(30)
        referee = Referee(time_limit=10, ask_team=True)
        record = referee.play_game(program, EnginePlayer(MoveChooser(nodes=300)))
    finally:
        program.close()
    assert record.reason in ("loop", "line"), record.describe()
    assert record.white == "HW"
    position = Position()
    checked = 0
    for ply, move in enumerate(record.moves):
        if ply % 2 == 0 and ply > 0:  # the model's moves (it is white; its first is fixed)
            assert str(model_move(position)) == move, f"ply {ply}: {record.moves[:ply]}"
            checked += 1
        position.play(move)
    assert checked >= 3, record.moves


def engine_replies(argv: list[str], plies: int, stderr=None):
    """Start the engine ``argv`` as black and play against it until ``plies`` (the opponent
    plays its first legal move that does not end the game); yields (the position, the engine's
    reply to it) before each reply is played."""
    position = Position()
    with ProcessTransport(argv, stderr=stderr) as link:
        link.send_line("-B")
        while position.ply < plies and position.outcome is None:
            theirs = next(m for m in position.legal_moves() if not ends(position, m))
            position.play(theirs)
            link.send_line(str(theirs))
            mine = link.read_line(30)
            yield position, mine
            position.play(mine)


def test_the_engine_honours_the_node_budget_and_the_depth(tmp_path):
    # Its log line per move: "<move>: depth D score S nodes N in T s (model)".
    checked = 0
    for nodes, depth in ((40, 6), (5000, 1), (5000, 2)):
        argv = [*MODEL[:7], "--nodes", str(nodes), "--depth", str(depth)]
        log = tmp_path / f"{nodes}-{depth}.log"
        for position, mine in engine_replies(argv, 8, log):
            assert str(model_move(position, nodes, depth)) == mine
            checked += 1
        found = re.findall(r"depth (\d+) score -?\d+ nodes (\d+) in", log.read_text())
        assert len(found) == 4, log.read_text()
        for d, n in found:
            assert int(n) <= nodes and int(d) <= depth, (nodes, depth, log.read_text())
    assert checked == 12


def test_the_engine_with_engines_plays_the_parallel_models_moves(tmp_path):
    argv = [*MODEL[:7], "--nodes", "40", "--depth", "3", "--engines", "3"]
    log = tmp_path / "engines.log"
    for position, mine in engine_replies(argv, 8, log):
        expected = hw_parallel_search(
            *(position, 64, 64, 40, 3, 3), shared_table=True, research=ORDER, **TABLE
        )
        assert str(expected.move) == mine
    assert log.read_text().count("(compiled model, 3 engines)") == 4, log.read_text()


def test_the_engine_plays_the_search_order_and_research_options_and_weights(tmp_path):
    """``--no-attack-cut --no-newest-first`` plays the model without the board file's search
    order; ``--research F`` adds those research flags to it; ``--research-weights FILE`` sets
    the fitted evaluation's weights (the board's own weights: the board's moves), or with 1,029
    of them the shapes evaluation's (``--research 128``)."""
    from trax_fpga.host.fastmodel import (
        BOARD_WEIGHTS,
        RESEARCH_FITTED,
        RESEARCH_HALF,
        RESEARCH_SHAPES,
        fast_search,
    )
    from trax_fpga.host.shapes import PSEUDO, SHAPE_FEATURES, TRACKS, shape_weights

    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps(list(BOARD_WEIGHTS)))
    shapes = [(k * 37) % 61 - 30 for k in range(SHAPE_FEATURES)]
    shapes[PSEUDO:TRACKS] = [300, -300, 40, -40]
    shape_file = tmp_path / "shapes.json"
    shape_file.write_text(json.dumps(shapes))
    shape_weights(shapes)
    differ = 0
    for extra, research in (
        (["--no-attack-cut", "--no-newest-first"], 0),
        (["--no-attack-cut"], RESEARCH_NEWEST),
        (["--research", str(RESEARCH_HALF)], ORDER | RESEARCH_HALF),
        (["--research", str(RESEARCH_FITTED), "--research-weights", str(weights)], ORDER),
        (
            ["--research", str(RESEARCH_SHAPES), "--research-weights", str(shape_file)],
            ORDER | RESEARCH_SHAPES,
        ),
    ):
        argv = [*MODEL[:7], "--nodes", "300", "--depth", "4", *extra]
        # The research evaluations weigh by their own weights, not the board files' shapes.
        options = {**TABLE, "shapes": None} if "--research-weights" in extra else TABLE
        for position, mine in engine_replies(argv, 6):
            shape_weights(shapes)  # (the board's shapes, searched below, set the same weights)
            want = fast_search(position, 64, 64, 300, 4, research=research, **options)
            assert str(want.move) == mine, extra
            board = fast_search(position, 64, 64, 300, 4, research=ORDER, **TABLE)
            differ += (board.move, board.nodes) != (want.move, want.nodes)
    assert differ >= 4  # (the options' searches are not the board file's)
    shape_weights([0] * SHAPE_FEATURES)


def ends(position: Position, move) -> bool:
    turn = position.play(move)
    position.pop()
    return turn.outcome is not None


def test_the_chooser_is_the_model_with_its_limits():
    checked = 0
    for tactic in TACTICS[::2]:
        position = tactic.position()
        for nodes, depth in ((1, 3), (60, 6), (700, 2), (2000, 4)):
            got = ModelChooser(nodes=nodes, depth=depth).choose(position)
            want = hw_search(position, 64, 64, nodes, depth, board="track", research=ORDER, **TABLE)
            assert got == want
            assert got.nodes <= nodes and got.depth <= depth
            checked += 1
        # Without the table's values, and without a table.
        for table in ({"move_table": 64, "table_scores": False}, {"move_table": 0}):
            got = ModelChooser(nodes=2000, depth=4, **table).choose(position)
            want = hw_search(
                *(position, 64, 64, 2000, 4),
                board="track",
                research=ORDER,
                shapes=DEFAULT_SHAPES,
                **table,
            )
            assert got == want
            checked += 1
        # Without the search order's options.
        chooser = ModelChooser(nodes=2000, depth=4, attack_cut=False, newest_first=False)
        assert chooser.choose(position) == hw_search(
            position, 64, 64, 2000, 4, board="track", **TABLE
        )
        checked += 1
    assert checked == 7 * len(TACTICS[::2]) >= 70


def test_the_chooser_defaults_to_the_board_files_table():
    """The board file's table and search order change what the model plays: more than one of
    the tactics' searches differs from the search without them (nodes or move)."""
    differ = 0
    for tactic in TACTICS[::2]:
        position = tactic.position()
        got = ModelChooser(nodes=2000, depth=4).choose(position)
        plain = hw_search(position, 64, 64, 2000, 4, board="track")
        differ += (got.move, got.nodes, got.depth) != (plain.move, plain.nodes, plain.depth)
    assert differ >= 2


def test_the_chooser_with_engines_is_the_parallel_model():
    """``engines`` > 1: the model of that many engines splitting the root (and with
    ``pv_plies``, the previous best's line; with ``helpers``, idle engines helping), ``nodes``
    each."""
    checked = 0
    for tactic in TACTICS[::4]:
        position = tactic.position()
        cases = ((5, 3, 2, 1, False), (60, 6, 3, 4, False), (700, 2, 4, 1, False))
        for nodes, depth, engines, plies, helpers in (*cases, (400, 4, 3, 2, True)):
            chooser = ModelChooser(
                nodes=nodes, depth=depth, engines=engines, pv_plies=plies, helpers=helpers
            )
            got = chooser.choose(position)
            expected = hw_parallel_search(
                *(position, 64, 64, nodes, depth, engines),
                pv_plies=plies,
                helpers=helpers,
                shared_table=True,
                research=ORDER,
                **TABLE,
            )
            assert got == expected
            assert max(got.engine_nodes) <= nodes and len(got.engine_nodes) == engines
            assert position.is_legal(got.move)
            checked += 1
    assert checked == 4 * len(TACTICS[::4]) >= 20


def opening(seed, plies=2 * VARIED_PLIES):
    """The engine's moves as white against an opponent that always plays its first legal move;
    and the positions it answered."""
    s = EngineSession(ModelChooser(nodes=NODES, depth=DEPTH), seed=seed)
    moves, positions = [s.handle("-W")], []
    while len(moves) < plies and s.position.outcome is None:
        s.position.play(s.position.legal_moves()[0])
        if s.position.outcome is not None:
            break
        positions.append(s.position.copy())
        moves.append(s._play())
    return moves, positions


def test_a_seed_varies_the_first_plies_only_and_repeats_them():
    assert opening(None)[0] == opening(None)[0]
    assert opening(5)[0] == opening(5)[0]
    games = {seed: opening(seed) for seed in range(10)}
    assert len({tuple(moves) for moves, _ in games.values()}) >= 4
    # After the varied plies, each move is the model's for the position it was played in.
    checked = 0
    for moves, positions in games.values():
        for move, position in zip(moves[1:], positions, strict=True):
            if position.ply >= VARIED_PLIES:
                assert str(model_move(position)) == move
                checked += 1
    assert checked >= 10


def after(position: Position, move) -> int:
    """The track evaluation after ``move``, from its mover's side (the model's: by the tracks'
    shapes, the board files' table)."""
    position.play(move)
    try:
        tracks = track_features(position, 64, 64, DEFAULT_SHAPES)
        return -track_score(tracks, position.turn, DEFAULT_SHAPES)
    finally:
        position.pop()


def evaluation_near(position: Position) -> list:
    """The moves near the best by the track evaluation after them, as the seeded model first
    takes them: none that ends the game or lets the opponent win at once."""
    scored = {}
    for move in position.legal_moves():
        turn = position.play(move)
        opponent_wins = turn.outcome is None and gives_a_win(position)
        position.pop()
        if turn.outcome is None and not opponent_wins:
            scored[move] = after(position, move)
    best = max(scored.values())
    return [move for move, score in scored.items() if score >= best - MODEL_VARIED_MARGIN]


def searched_after(position: Position, move, nodes: int) -> int:
    """The Python model's score after ``move``, from its mover's side, at ``nodes``."""
    position.play(move)
    try:
        return -hw_search(
            position, 64, 64, nodes, DEPTH, board="track", research=ORDER, **TABLE
        ).score
    finally:
        position.pop()


def test_a_varied_move_is_near_equal_to_the_best_by_the_evaluation_and_by_a_search():
    checked = varied = 0
    for moves in (["@0+"], ["@0+", "A2\\"], ["@0/", "B1+", "A0+"], ["@0/", "A0/", "@2/"]):
        position = Position.from_moves(moves)
        model = model_move(position)
        near = ModelChooser(nodes=NODES, depth=DEPTH).near_moves(position, model)
        evaluated = evaluation_near(position)
        assert model in near
        assert all(move in evaluated for move in near if move != model)
        # Each at the move's nodes shared among the evaluation's near moves: recomputed here by
        # the Python model (the chooser runs the compiled one), over every such move.
        share = max(1, NODES // len(evaluated))
        searched = {move: searched_after(position, move, share) for move in evaluated}
        top = max(searched.values())
        assert [m for m in evaluated if m in near] == [
            m for m in evaluated if top - MODEL_VARIED_MARGIN <= searched[m] > -MATE_BOUND
        ]
        chosen = set()
        for seed in range(20):
            move = ModelChooser(nodes=NODES, depth=DEPTH, seed=seed).choose(position).move
            assert position.is_legal(move) and move in near
            chosen.add(move)
            checked += 1
        assert len(chosen) >= 2 if len(near) >= 2 else chosen == {model}
        varied += len(near) >= 2
    assert checked == 80 and varied >= 2


def test_a_varied_move_is_searched_within_the_clock_of_one_move(monkeypatch):
    """With a clock (``ticks``, as the board's model plays: ``--ticks`` and no node limit), the
    near moves' searches share the clock of one move, not only its nodes: with the nodes alone
    each was a search to depth 8 without end (a seeded series of the forty-first session never
    finished its first move)."""
    chooser = ModelChooser(nodes=10**9, engines=2, ticks=4_000, seed=1)
    budgets = []
    search = ModelChooser._search

    def spy(self, position, nodes, depth, research, ticks=None):
        budgets.append((nodes, ticks))
        return search(self, position, nodes, depth, research, ticks)

    monkeypatch.setattr(ModelChooser, "_search", spy)
    position = Position.from_moves(["@0+"])
    assert position.is_legal(chooser.choose(position).move)
    assert budgets[0] == (10**9, 4_000)  # the move's own search
    near = budgets[1:]
    assert len(near) >= 2 and all(ticks == 4_000 // len(near) for _, ticks in near)


def test_ponder_searches_longer_after_the_predicted_reply_only(monkeypatch):
    """Research (``ponder``): after its move the chooser predicts the reply with a quarter of
    a move's ticks; when the opponent plays it, the next search has the ticks of ``ponder`` more
    seconds of the board's clock (0.8 s a move: 0.4 s is half a move more), else its own."""
    chooser = ModelChooser(nodes=10**9, engines=2, ticks=4_000, ponder=0.4)
    budgets = []

    def first_tile(position, move):
        tile = position.play(move).placed[0]
        position.pop()
        return tile

    search = ModelChooser._search

    def spy(self, position, nodes, depth, research, ticks=None):
        budgets.append(ticks)
        return search(self, position, nodes, depth, research, ticks)

    monkeypatch.setattr(ModelChooser, "_search", spy)
    position = Position.from_moves(["@0+"])
    move = chooser.choose(position).move
    assert budgets == [4_000, 1_000]  # the move, then the prediction of the reply
    assert position.ply == 1  # left unchanged
    position.play(move)
    ply, tile = chooser.predicted
    assert ply == position.ply
    reply = next(m for m in position.legal_moves() if first_tile(position, m) == tile)
    position.play(reply)
    budgets.clear()
    move = chooser.choose(position).move
    assert budgets[0] == 6_000 and (chooser.ponder_hits, chooser.ponder_misses) == (1, 0)
    # A reply other than the predicted one: the move's own ticks.
    position.play(move)
    _, tile = chooser.predicted
    other = next(m for m in position.legal_moves() if first_tile(position, m) != tile)
    position.play(other)
    budgets.clear()
    chooser.choose(position)
    assert budgets[0] == 4_000 and (chooser.ponder_hits, chooser.ponder_misses) == (1, 1)


def test_ponder_hits_counts_the_replies_to_the_boards_moves(tmp_path, capsys):
    """``search_bench ponder`` reads ``trax match`` logs: in a game the board played as black,
    each of white's moves after one of black's is a reply it predicts (with its model)."""
    from trax_fpga.host.search_bench import main as bench
    from trax_fpga.host.search_bench import match_log_games

    position = Position()
    for ply in range(7):  # a legal game of 7 plies, none of them won
        legal = position.legal_moves()
        position.play(legal[(3 * ply) % len(legal)])
    assert position.outcome is None
    moves = [str(turn.move) for turn in position.turns]
    log = tmp_path / "0001-kizuna-trax.log"
    log.write_text(
        "# white: A = engine-per-game:kizuna_engine\n"
        "# black: B = engine:trax engine --search model\n"
        "Trax\nkizuna vs trax\n" + "\n".join(moves) + "\n"
    )
    assert match_log_games(log, "trax engine") == (moves, Colour.BLACK)
    assert match_log_games(log, "nobody") is None
    bench(["ponder", str(log), "--ticks", "400"])
    out = capsys.readouterr().out
    hits = int(re.search(r"ponder hits: (\d+) of 3 ", out).group(1))  # after A0/, A1/, C1/
    assert 0 <= hits <= 3 and "1 games of 'trax engine' in 1 match logs" in out


def test_ponder_needs_a_clock():
    with pytest.raises(ValueError, match="ponder is positive seconds, with a ticks' budget"):
        ModelChooser(nodes=100, ponder=0.5)
    with pytest.raises(ValueError, match="ponder"):
        ModelChooser(nodes=100, ticks=100, ponder=0)


def test_a_varied_move_is_never_one_a_search_proves_lost():
    """The board file's player in the model, seeded, played @0+ B1\\ @1\\ D1\\ as black
    against KizuNa at 0.75 s (thirty-fifth session's series, seed 3001, game 12) and lost in
    11 plies: D1\\ is near the best by the track evaluation, and the model's own search after
    it proves white's win. A varied move is chosen only among the moves whose search after
    them is near the best one's, never a proved loss."""
    position = Position.from_moves(["@0+", "B1\\", "@1\\"])
    lost = Move.parse("D1\\")
    evaluated = evaluation_near(position)
    assert lost in evaluated  # the evaluation alone would vary into it
    chooser = ModelChooser(nodes=1_000_000)
    model = chooser.choose(position).move
    near = chooser.near_moves(position, model)
    assert lost not in near and model in near and len(near) >= 2
    position.play(lost)  # searched as the chooser does: at the move's nodes shared among them
    proof, compiled = model_search(
        position, 64, 1_000_000 // len(evaluated), 8, **TABLE, attack_cut=True, newest_first=True
    )
    assert compiled and proof.score >= MATE_BOUND  # white, to move, wins by force


def test_a_varied_move_never_lets_the_opponent_win_at_once():
    """After @0+ A2\\ A0/ every black move but B2/ lets white win at once (C2+ closes a loop
    through forced tiles, which the track evaluation does not see as an attack): the seeded
    model played @3/ so in its first series against KizuNa and lost in 5 plies. Neither chooser
    varies into such a move."""
    position = Position.from_moves(["@0+", "A2\\", "A0/"])
    for seed in range(12):
        for chooser in (
            ModelChooser(nodes=NODES, depth=DEPTH, seed=seed),
            MoveChooser(nodes=200, seed=seed),
        ):
            move = chooser.choose(position).move
            position.play(move)
            assert not gives_a_win(position), (seed, chooser.describe(), move)
            position.pop()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["engine", "--search", "model", "--time", "1"], "--time: the model"),
        (["engine", "--search", "model", "--torus", "2"], "--torus: at least 4"),
        (["engine", "--search", "gate"], "invalid choice: 'gate'"),
        (["engine", "--depth", "0"], "--depth"),
        (
            ["engine", "--engines", "2"],
            "--newest-first, --research, --verify, --shapes: for the model",
        ),
        (
            ["engine", "--pv-plies", "3"],
            "--newest-first, --research, --verify, --shapes: for the model",
        ),
        (
            ["engine", "--move-table", "0"],
            "--newest-first, --research, --verify, --shapes: for the model",
        ),
        (
            ["engine", "--no-table-scores"],
            "--newest-first, --research, --verify, --shapes: for the model",
        ),
        (
            ["engine", "--no-attack-cut"],
            "--newest-first, --research, --verify, --shapes: for the model",
        ),
        (
            ["engine", "--newest-first"],
            "--newest-first, --research, --verify, --shapes: for the model",
        ),
        (["engine", "--search", "model", "--engines", "0"], "--engines"),
        (["engine", "--search", "model", "--ponder", "0.5"], "--ponder: positive seconds, with"),
        (["engine", "--ponder", "0.5"], "--helpers, --ponder, --move-table"),
        (["engine", "--helpers"], "--pv-plies, --helpers, --ponder"),
        (["engine", "--verify", "1:2:3"], "--research, --verify, --shapes: for the model"),
        (
            ["engine", "--search", "model", "--verify", "1:2"],
            "NODES:DEPTH:RESEARCH (NODES and DEPTH positive)",
        ),
        (
            ["engine", "--search", "model", "--verify", "0:2:3"],
            "NODES and DEPTH positive), not '0:2:3'",
        ),
        (["engine", "--search", "model", "--move-table", "12"], "a power of two from 2, not 12"),
        (["engine", "--search", "model", "--torus", "128"], "tori of at most 64 x 64"),
        (["best", "--backend", "model", "--move-table", "1"], "a power of two from 2, not 1"),
    ],
)
def test_bad_options_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2, 3]", "3 research weights; the fitted evaluation's are 30"),
        ('{"a": 1}', "a JSON list of integers"),
        ("[1, 2,", "cannot read the research weights"),
    ],
)
def test_bad_research_weights_are_clear_errors(content, message, tmp_path, capsys):
    """A weights file of the wrong length (neither the fitted evaluation's 30 nor the shapes
    evaluation's 1,029), not a list of integers, or not JSON: an error naming it, no
    traceback."""
    path = tmp_path / "weights.json"
    path.write_text(content)
    argv = ["engine", "--search", "model", "--research", "128", "--research-weights", str(path)]
    assert main(argv) == 1
    error = capsys.readouterr().err
    assert message in error and str(path) in error and "Traceback" not in error


def test_the_engine_with_shapes_plays_the_tracks_shapes_search(tmp_path):
    """By default (``--shapes board``) the model evaluates by the tracks' shapes with the board
    files' table; ``--shapes none`` by the tracks' kinds (the loop potential), ``--shapes FILE``
    by that file's weights (tracks and constant only): the Python model's search with each
    (``hw_search(..., shapes=...)``), whose moves and scores differ."""
    from trax_fpga.host.shapes import BOARD_WEIGHTS, TRACKS, track_table

    weights = json.loads(BOARD_WEIGHTS.read_text())
    weights[TRACKS : TRACKS + 64] = [w * 2 - 7 for w in weights[TRACKS : TRACKS + 64]]
    path = tmp_path / "shapes.json"
    path.write_text(json.dumps(weights))
    checked, differ = 0, {"none": 0, "file": 0}
    for name, option, table in (
        ("board", [], DEFAULT_SHAPES),
        ("none", ["--shapes", "none"], None),
        ("file", ["--shapes", str(path)], track_table(weights)),
    ):
        argv = [*MODEL[:7], "--nodes", "300", "--depth", "4", *option]
        for position, mine in engine_replies(argv, 12):
            arguments = (position, 64, 64, 300, 4)
            options = {**TABLE, "shapes": table}
            want = hw_search(*arguments, board="track", research=ORDER, **options)
            assert str(want.move) == mine, name
            board = hw_search(*arguments, board="track", research=ORDER, **TABLE)
            if name != "board":
                differ[name] += (board.move, board.score) != (want.move, want.score)
            checked += 1
    assert checked >= 3 * 4  # (a game may end before its twelfth ply)
    assert min(differ.values()) >= 3, differ


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2, 3]", "shape weights are 1029 integers"),
        ("[" + ", ".join(["1"] * 1029) + "]", "pairs, pseudo-threats or long tracks"),
        ("[1, 2,", "cannot read the shapes' weights"),
    ],
)
def test_bad_shapes_are_clear_errors(content, message, tmp_path, capsys):
    """A weights file of the wrong length, one weighing more than the tracks and the
    constant, or not JSON: an error naming it, no traceback."""
    path = tmp_path / "shapes.json"
    path.write_text(content)
    assert main(["engine", "--search", "model", "--shapes", str(path)]) == 1
    error = capsys.readouterr().err
    assert message in error and str(path) in error and "Traceback" not in error


def test_a_research_evaluation_refuses_a_shapes_table():
    """The table would overwrite a research evaluation's weights (the compiled model keeps one
    set of shapes weights): the chooser and the compiled model refuse the two together."""
    from trax_fpga.host.fastmodel import RESEARCH_FITTED, RESEARCH_SHAPES, fast_search

    for research in (RESEARCH_FITTED, RESEARCH_SHAPES):
        with pytest.raises(ValueError, match="weights of its own"):
            ModelChooser(nodes=NODES, research=research)
        with pytest.raises(ValueError, match="weights of its own"):
            position = Position.from_moves(["@0+", "B1+"])
            fast_search(position, 64, 64, 10, 1, research=research, shapes=DEFAULT_SHAPES)
        assert ModelChooser(nodes=NODES, research=research, shapes=None).shapes is None


#: A position of the KizuNa series (board3004, game 6, the board to move at ply 5): the move
#: the board's search chooses at 100,000 nodes lets KizuNa force a win, which a search from
#: KizuNa's side after it proves (thirty-third session: docs/evaluation.md, "Half plies, and a
#: move verified from the opponent's side").
VERIFIED_OPENING = ["@0+", "B1+", "C1+", "A2/", "A0\\"]


def test_a_verified_move_is_searched_again_when_the_opponent_wins_after_it():
    """``verify``: the chosen move is checked by a search from the opponent's side; when that
    proves the opponent's win, the move is left out and the position searched again."""
    from trax_fpga.host.fastmodel import model_search
    from trax_fpga.host.hwsearch import MATE_BOUND

    position = Position.from_moves(VERIFIED_OPENING)
    plain = ModelChooser(nodes=100_000, depth=8).choose(position)
    checked = ModelChooser(nodes=100_000, depth=8, verify=(300_000, 14, 19)).choose(position)
    assert position.ply == len(VERIFIED_OPENING)  # left as it was
    position.play(plain.move)
    refuted, _ = model_search(position, 64, 300_000, 14, research=19, shapes=DEFAULT_SHAPES)
    position.pop()
    assert refuted.score >= MATE_BOUND  # the opponent's win after the plain move, proved
    assert checked.move != plain.move and checked.move in position.legal_moves()
    # Where the verifying search proves nothing, the move stands.
    quiet = Position.from_moves(["@0+", "B1+"])
    assert ModelChooser(nodes=2000, depth=4, verify=(2000, 6, 3)).choose(quiet) == ModelChooser(
        nodes=2000, depth=4
    ).choose(quiet)
