"""trax-fpga: an FPGA Trax player.

The repository's top-level folders are installed as subpackages of this one:
``trax_fpga.host`` (``host/``), ``trax_fpga.hdl`` (``hdl/``), ``trax_fpga.sim`` (``sim/``) and
``trax_fpga.boards`` (``boards/``).
"""

__version__ = "0.1.0"
