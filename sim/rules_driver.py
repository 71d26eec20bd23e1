"""Placeholder: filled in below."""


def window_cell(box, x: int, y: int, width: int, height: int) -> tuple[int, int] | None:
    """The window cell at which the gateware judges a move to board cell (x, y).

    ``box`` is the reference-style box (min_x, min_y, max_x, max_y) or None for the empty board.
    Board cells inside the box and its ring map to (x mod W, y mod H). A cell beyond the ring
    touches no tile; it maps to a window cell that touches none either (so the gateware answers
    "not adjacent"), or to None when the window has no such cell. On the empty board a cell other
    than (0, 0) maps to a window cell other than the origin.
    """
    if box is None:
        if 0 <= x < width and 0 <= y < height:
            return x, y
        return 1, 1
    min_x, min_y, max_x, max_y = box
    if min_x - 1 <= x <= max_x + 1 and min_y - 1 <= y <= max_y + 1:
        return x % width, y % height
    if max_x - min_x + 3 < width:
        return (max_x + 2) % width, y % height
    if max_y - min_y + 3 < height:
        return x % width, (max_y + 2) % height
    return None
