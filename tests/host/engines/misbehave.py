"""A contest engine that slips once in a series, for the referee's tests.

    python misbehave.py FAULT STATE [--game G] [--at K] [--nodes N] [--delay S]

It plays as ``trax engine --nodes N`` does, except that in the series' game ``G`` (default 2),
at its ``K``-th answer (default 2), it commits ``FAULT`` once. ``STATE`` is a file that keeps the
series' game count and whether the slip happened across restarts of the engine. ``--delay``
waits before every answer (a slower engine, for tests that interrupt a series). With the
environment variable ``TRAX_TEST_PIDS`` set to a folder, the engine writes its process id and
process group there (one file each), so that a test can check that none is left running.

Faults: ``none``; ``duplicate`` (the answer twice); ``two-moves`` (two moves on one line);
``oversized`` (1 MiB without a line end, then silence); ``late`` (the answer ``--late`` s late);
``crash`` (exit status 3 instead of answering); ``crash-restart`` (as ``crash``, and every later
start exits at once); ``crash-every`` (``crash`` in every game from ``G`` on); ``close-stdout``
(closes its output and keeps running); ``stop-reading`` (stops reading and answering, ignoring
SIGTERM); ``stderr-flood`` (4 MiB on standard error, then the answer); ``banner`` (a line before
the first request, then plays well).
"""

import argparse
import os
import signal
import sys
import time
from pathlib import Path

from process_ids import note_process  # (beside this script: its folder is on sys.path)

from trax_fpga.host.engine import EngineSession, MoveChooser


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("fault")
    parser.add_argument("state", type=Path)
    parser.add_argument("--game", type=int, default=2)
    parser.add_argument("--at", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--late", type=float, default=0.8)
    args = parser.parse_args()
    note_process()
    games, slipped = 0, False
    if args.state.exists():
        games_text, slipped_text = args.state.read_text().split()
        games, slipped = int(games_text), slipped_text == "1"
    if slipped and args.fault == "crash-restart":
        return 4

    def save() -> None:
        args.state.write_text(f"{games} {int(slipped)}\n")

    out = sys.stdout.buffer
    if args.fault == "banner":
        out.write(b"misbehave ready\n")
        out.flush()
    session = EngineSession(MoveChooser(nodes=args.nodes), team="MB")
    answers = 0
    for raw in sys.stdin.buffer:
        line = raw.decode("ascii", "replace").rstrip("\r\n")
        if line in ("-W", "-B"):
            games += 1
            answers = 0
            save()
        answer = session.handle(line)
        if answer is None:
            continue
        if line != "-T":
            answers += 1
        if args.delay:
            time.sleep(args.delay)
        data = answer.encode("ascii") + b"\n"
        if args.fault == "crash-every":
            due = games >= args.game and answers == args.at
        else:
            due = not slipped and games == args.game and answers == args.at
        if due:
            slipped = True
            save()
            data = slip(args, answer, data)
        if data:
            out.write(data)
            out.flush()
    return 0


def slip(args, answer: str, data: bytes) -> bytes:
    """Commit the fault; return what is still to be sent."""
    fault = args.fault
    if fault == "duplicate":
        return data + data
    if fault == "two-moves":
        return f"{answer} {answer}\n".encode("ascii")
    if fault == "oversized":
        sys.stdout.buffer.write(b"x" * (1 << 20))
        sys.stdout.buffer.flush()
        time.sleep(60)
        return b""
    if fault == "late":
        time.sleep(args.late)
        return data
    if fault in ("crash", "crash-restart", "crash-every"):
        os._exit(3)
    if fault == "close-stdout":
        os.close(1)
        for _ in sys.stdin.buffer:
            pass
        time.sleep(60)
        os._exit(0)
    if fault == "stop-reading":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
        os._exit(0)
    if fault == "stderr-flood":
        for _ in range(64):
            sys.stderr.buffer.write(b"e" * (1 << 16))
        sys.stderr.buffer.flush()
        return data
    return data


if __name__ == "__main__":
    sys.exit(main())
