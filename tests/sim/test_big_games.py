"""The simulated board with the ULX3S board file's player plays games whose box grows past 20x20.

The board (one block-RAM board on a 64x64 torus, through its UART on Verilator, as `make play`
runs it) is given one node a move, so that it does not end the game early; its opponent grows the
box whenever it can without losing at once. Every answer is judged by the referee. A whole
game on the 7-engine board takes minutes: `make test-slow`.
"""

import dataclasses
import random

import pytest

from trax_fpga.host.players import Player
from trax_fpga.host.position import Position
from trax_fpga.host.referee import Referee
from trax_fpga.sim import board as simulated


class Sprawler(Player):
    """Grows the box whenever it can with a move after which the opponent cannot win at once."""

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
        candidates.sort(
            key=lambda m: (
                box is not None
                and m.column not in (0, box.width + 1)
                and m.row not in (0, box.height + 1)
            )
        )
        for candidate in candidates[:40]:
            position.play(candidate)
            if not position.is_over and self._safe():
                return str(candidate)
            position.pop()
        position.play(candidates[0])
        return str(candidates[0])


@pytest.mark.slow  # (a whole game simulated: some 8 minutes)
def test_a_game_past_20x20_to_its_end():
    config = dataclasses.replace(simulated.real_board_config(), budget=1)
    assert config.window == 64
    board = simulated.open_board_player(config)
    try:
        record = Referee(time_limit=None, max_plies=200).play_game(Sprawler(5), board, 1, None)
    finally:
        board.close()
    position = Position()
    for move in record.moves:
        position.play(move)  # every answer of the board was legal
    assert max(position.box.width, position.box.height) > 20, position.box
    assert record.reason in ("loop", "line"), record  # played to its end, not stopped
