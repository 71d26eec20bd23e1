"""The search's scores and the evaluation's weights, as the gateware uses them.

The values are those of the software models, the search's specification
(``trax_fpga.host.hwsearch``: ``WIN``, ``MATE_BOUND``, ``INFINITY``; ``trax_fpga.host.hweval``:
``MAX_EXTENSIONS``) and the evaluation's (``trax_fpga.host.trackeval``); a test holds them equal,
so the gateware needs no import of the host's modules.
"""

from amaranth import Mux, signed

__all__ = [
    "ATTACK_WEIGHT",
    "CLAMP",
    "INFINITY",
    "LOOP_WEIGHTS",
    "LOST",
    "MATE_BOUND",
    "MAX_EXTENSIONS",
    "OWN_ATTACK",
    "SCORE_BITS",
    "TEMPO",
    "WIN",
    "moved",
    "signed_score",
]

#: A won game, less the plies to it.
WIN = 1000
#: Scores at least this far from 0 are proved wins or losses.
MATE_BOUND = WIN - 100
#: Beyond every score.
INFINITY = 2000
#: Plies a side to move that must answer an attack gets beyond the horizon.
MAX_EXTENSIONS = 1

#: The evaluation of the side to move (``trackeval.track_score``): it has an attack (it closes
#: a loop next move); the opponent has two; the weight of the opponent's attack; the tempo; the
#: bound of the rest; a track's loop potential by its distance (1 to 4, the rows) and the
#: relation of its ends' directions (the same, turned, opposite).
OWN_ATTACK = 500
LOST = -500
ATTACK_WEIGHT = 150
TEMPO = 20
CLAMP = 400
LOOP_WEIGHTS = ((60, 40, 10), (40, 30, 8), (20, 12, 4), (8, 5, 2))

#: Bits of a score: it holds +-INFINITY.
SCORE_BITS = 13


def signed_score():
    """The shape of a search score: signed, holding +-INFINITY."""
    return signed(SCORE_BITS)


def moved(value, plies):
    """``value`` moved by ``plies`` (a value, negative to move it back) when it is a win's or a
    loss's score: a table holds a win's plies counted from its node (host/movetable.py's
    ``moved``)."""
    return value + Mux(value >= MATE_BOUND, plies, Mux(value <= -MATE_BOUND, -plies, 0))
