"""The simulated board with the ULX3S board file's player plays games whose box grows past 20x20.

The board (the board file's player on a 64x64 torus, through its UART on Verilator, as `make
play` runs it) is given one node a move, so that it does not end the game early; its opponent
grows the box whenever it can without losing at once until the box is ``SPRAWL`` across, then
plays inside it and takes a win when it has one, so the game ends well within the torus (a game
that outgrows it is refused by the board, which then stays silent: the referee's time limit
fails the test rather than waiting for ever). Every answer is judged by the referee. A whole
game takes a minute or so: `make test-slow`.
"""

import dataclasses
import random

import pytest

from trax_fpga.host.players import Player
from trax_fpga.host.position import Position
from trax_fpga.host.referee import Referee
from trax_fpga.sim import board as simulated

#: The box's side past which the sprawler stops growing it (the test's aim is past 20; the
#: torus holds 62 with its ring of empty cells). With seed 5 and the board file of the
#: twenty-sixth session the sprawler without this limit reached 63 columns at ply 133.
SPRAWL = 28


class Sprawler(Player):
    """Grows the box whenever it can with a move after which the opponent cannot win at once,
    until it is :data:`SPRAWL` across; then wins at once when it can, else plays inside the box."""

    def __init__(self, seed: int) -> None:
        super().__init__("sprawler")
        self.rng = random.Random(seed)
        self.position = Position()

    def new_game(self, colour) -> None:
        self.position = Position()

    def _safe(self) -> bool:
        position = self.position
        for reply in position.legal_moves():
            position.play(reply)
            lost = position.is_over
            position.pop()
            if lost:
                return False
        return True

    def answer(self, move, timeout) -> str:
        position = self.position
        if move is not None:
            position.play(move)
        box = position.box
        candidates = position.legal_moves()
        self.rng.shuffle(candidates)
        grown = box is not None and max(box.width, box.height) >= SPRAWL
        if grown:
            for candidate in candidates:
                position.play(candidate)
                if position.is_over and position.outcome.winner is position.turn.other:
                    return str(candidate)  # it won (the turn has passed to the loser)
                position.pop()
        candidates.sort(
            key=lambda m: (
                (
                    box is not None
                    and m.column not in (0, box.width + 1)
                    and m.row not in (0, box.height + 1)
                )
                != grown
            )
        )
        for candidate in candidates[:40]:
            position.play(candidate)
            if not position.is_over and self._safe():
                return str(candidate)
            position.pop()
        position.play(candidates[0])
        return str(candidates[0])


@pytest.mark.slow  # (a whole game simulated, after the board's build: some 30 s here)
def test_a_game_past_20x20_to_its_end():
    config = dataclasses.replace(simulated.real_board_config(), budget=1)
    assert config.window == 64
    board = simulated.open_board_player(config)
    try:
        referee = Referee(time_limit=300, max_plies=200)
        record = referee.play_game(Sprawler(5), board, 1, None)
    finally:
        board.close()
    position = Position()
    for move in record.moves:
        position.play(move)  # every answer of the board was legal
    assert max(position.box.width, position.box.height) > 20, position.box
    assert record.reason in ("loop", "line"), record  # played to its end, not stopped
