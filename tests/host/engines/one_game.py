"""A contest engine that plays one game per process, as KizuNa does, for the referee's tests.

    python one_game.py [--startup S] [--nodes N]

It waits ``S`` s before it reads anything (KizuNa clears its table for some 1.2 s), then plays as
``trax engine --nodes N`` does, for one game. When its own move ends the game it exits; when the
game ends otherwise (the referee sends nothing at the end of a game) it keeps running and takes
a later ``-W`` or ``-B`` for an unrecognised move: it answers nothing. With the environment
variable ``TRAX_TEST_PIDS`` set to a folder, it writes its process id and process group there.
"""

import argparse
import sys
import time

from process_ids import note_process  # (beside this script: its folder is on sys.path)

from trax_fpga.host.engine import EngineSession, MoveChooser


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--startup", type=float, default=0.0)
    parser.add_argument("--nodes", type=int, default=200)
    args = parser.parse_args()
    note_process()
    time.sleep(args.startup)
    session = EngineSession(MoveChooser(nodes=args.nodes), team="OG")
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        line = raw.decode("ascii", "replace").rstrip("\r\n")
        if line in ("-W", "-B") and session.games:
            continue  # a second game: not a move it knows, so no answer
        answer = session.handle(line)
        if answer is not None:
            out.write(answer.encode("ascii") + b"\n")
            out.flush()
        position = session.position
        if line != "-T" and position is not None and position.outcome is not None:
            return 0  # it saw its game end
    return 0


if __name__ == "__main__":
    sys.exit(main())
