# Measured coverage of every estimator and threshold strategy of eps-from-scores on mechanisms
# whose true privacy curve is known exactly (issue 20):
#   make -C experiments -j2 coverage [COVERAGE_RUNS=1000]   -> $(OUT)/coverage/table.md (experiments/coverage.md)
# Cells (coverage/run_cell.py): two Gaussians N(0,1) vs N(mu,1), mu 1, 2, 3, 10^3 and 10^4 per
#   class, delta 1e-5; the one-run design (Steinke, Nasr & Jagielski 2023) with 10^3 and 10^4
#   canaries, each in with probability 1/2, mu 2; randomized response and the Laplace mechanism
#   at pure eps 1 and 4 (RR) and 1 and 2 (Laplace), 10^3 per class, delta 0. One process per
#   cell runs COVERAGE_RUNS seeded runs of the real eps-from-scores; the slow rows (multi-split,
#   the bootstrap) run on the first COVERAGE_SLOW_RUNS of them, one-run-fdp (Gaussian curve)
#   with multi-split, the slowest (2-12 s a run), on the first COVERAGE_FDP_SPLIT_RUNS.
COVERAGE_RUNS ?= 200
COVERAGE_SLOW_RUNS ?= $(shell expr $(COVERAGE_RUNS) / 4)
COVERAGE_FDP_SPLIT_RUNS ?= 10
# The 10^4 cells first: with -j2 the long ones start early.
COVERAGE_CELLS ?= gauss-mu1-n10000 gauss-mu2-n10000 gauss-mu3-n10000 onerun-mu2-m10000 \
  gauss-mu1-n1000 gauss-mu2-n1000 gauss-mu3-n1000 onerun-mu2-m1000 \
  rr-eps1-n1000 rr-eps4-n1000 laplace-eps1-n1000 laplace-eps2-n1000
# A folder of cells whose rows a newer build measured again on the same runs (summarize.py
# --override): they replace those rows, the old ones shown beside them as "(before)".
COVERAGE_OVERRIDE ?=
COVERAGE_OUT ?= $(OUT)/coverage
COVERAGE_DIR := $(dir $(lastword $(MAKEFILE_LIST)))coverage
COVERAGE_CELL_FILES := $(foreach c,$(COVERAGE_CELLS),$(COVERAGE_OUT)/runs-$(COVERAGE_RUNS)/$(c).json)

.PHONY: coverage
all: coverage
coverage: $(COVERAGE_OUT)/table.md
	@cat $<

$(COVERAGE_OUT)/runs-$(COVERAGE_RUNS)/%.json: $(COVERAGE_DIR)/run_cell.py
	@mkdir -p $(@D)
	$(PYTHON) $(COVERAGE_DIR)/run_cell.py --bin $(BIN) --cell $* --runs $(COVERAGE_RUNS) \
	  --slow-runs $(COVERAGE_SLOW_RUNS) --fdp-split-runs $(COVERAGE_FDP_SPLIT_RUNS) -o $@

$(COVERAGE_OUT)/table.md: $(COVERAGE_CELL_FILES) $(COVERAGE_DIR)/summarize.py
	$(PYTHON) $(COVERAGE_DIR)/summarize.py $(if $(COVERAGE_OVERRIDE),--override $(COVERAGE_OVERRIDE)) \
	  $(COVERAGE_CELL_FILES) >$@.tmp
	mv $@.tmp $@
