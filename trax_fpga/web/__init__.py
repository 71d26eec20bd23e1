"""``trax web``: the board in the browser (play, watch a match, replay a log): :mod:`.server`."""
