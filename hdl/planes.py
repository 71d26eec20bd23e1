"""Bit planes: a W x H window as one W*H-bit vector per property, and torus neighbour shifts.

Bit ``y * W + x`` of a plane is window cell (x, y). Shifting a plane moves every cell's bit to
its neighbour at once, wrapping around the window (torus), in the style of chess bitboards: the
same formulas serve the reference engine's reasoning and the gateware, and they simulate fast
(one wide operation per plane instead of one per cell).
"""

from amaranth import Cat, Const, Value

__all__ = ["Planes"]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


class Planes:
    """Shifts and masks for W x H planes."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.size = width * height
        first = sum(1 << (y * width) for y in range(height))
        self.first_col = Const(first, self.size)
        self.last_col = Const(first << (width - 1), self.size)

    def from_neighbour(self, plane: Value, direction: int) -> Value:
        """Each cell gets the bit of its neighbour in ``direction`` (wrapping around)."""
        w = self.width
        plane = Value.cast(plane)
        if direction == NORTH:  # (x, y - 1)
            return plane.rotate_left(w)
        if direction == SOUTH:  # (x, y + 1)
            return plane.rotate_right(w)
        if direction == EAST:  # (x + 1, y)
            return (plane.rotate_right(1) & ~self.last_col) | (
                plane.rotate_left(w - 1) & self.last_col
            )
        if direction == WEST:  # (x - 1, y)
            return (plane.rotate_left(1) & ~self.first_col) | (
                plane.rotate_right(w - 1) & self.first_col
            )
        raise ValueError(f"direction must be 0..3, not {direction!r}")

    def column(self, select: list[Value]) -> Value:
        """The plane with every cell of column x set where ``select[x]`` is true."""
        return Cat([select[x] for _ in range(self.height) for x in range(self.width)])

    def row(self, select: list[Value]) -> Value:
        """The plane with every cell of row y set where ``select[y]`` is true."""
        return Cat([select[y] for y in range(self.height) for _ in range(self.width)])
