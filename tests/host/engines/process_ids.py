"""For the test engines: note this process's id and process group for the test that started it."""

import os
from pathlib import Path


def note_process() -> None:
    """With the environment variable ``TRAX_TEST_PIDS`` set to a folder, write this process's id
    and process group there (an empty file each), so that a test can check that none is left."""
    pids = os.environ.get("TRAX_TEST_PIDS")
    if pids:
        Path(pids, f"pid-{os.getpid()}").touch()
        Path(pids, f"pgid-{os.getpgid(0)}").touch()
