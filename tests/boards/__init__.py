"""Tests of the board files, the board flow and the synthesis wrapper."""
