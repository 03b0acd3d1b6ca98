# Balls-in-bins batches against Poisson (issue 23): the Monte Carlo estimate and upper bound of
# DP-SGD whose every record joins one uniformly drawn batch an epoch (rdp-compose --sampling
# balls-in-bins, lib/stats/balls_in_bins_bound.hpp) beside the Poisson upper bound at q = 1/B
# over E*B steps, over noise multipliers, epochs and batches per epoch, at one delta. The
# theory (Chua et al. 2025; Feldman & Shenfeld 2025) says balls-in-bins is at least as private
# as Poisson: the estimate should never be above the Poisson bound beyond its confidence width.
# One rdp-compose process a cell.
#   make -C experiments [-j2] balls-in-bins   -> $(OUT)/balls_in_bins/table.md
BIB_NOISE ?= 0.8 1 2
BIB_EPOCHS ?= 1 10
BIB_BATCHES ?= 10 100 1000
BIB_DELTA ?= 1e-5
BIB_SAMPLES ?= 1000000
BIB_OUT ?= $(OUT)/balls_in_bins
BIB_DIR := $(dir $(lastword $(MAKEFILE_LIST)))balls_in_bins
BIB_CELLS := $(foreach s,$(BIB_NOISE),$(foreach e,$(BIB_EPOCHS),$(foreach b,$(BIB_BATCHES),\
  $(BIB_OUT)/cells/$(s)_$(e)_$(b).json)))

.PHONY: balls-in-bins
all: balls-in-bins
balls-in-bins: $(BIB_OUT)/table.md
	@cat $<

# $(1): noise, $(2): epochs, $(3): batches. The cell's JSON, and its wall and CPU time.
define bib_cell
$(BIB_OUT)/cells/$(1)_$(2)_$(3).json:
	@mkdir -p $(BIB_OUT)/cells
	/usr/bin/time -f '%e %U %S %M' -o $$(@:.json=.time) rdp-compose --sampling balls-in-bins \
	  --sigma $(1) --epochs $(2) --batches $(3) --delta $(BIB_DELTA) --samples $(BIB_SAMPLES) \
	  --threads 1 --json >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach s,$(BIB_NOISE),$(foreach e,$(BIB_EPOCHS),$(foreach b,$(BIB_BATCHES),\
  $(eval $(call bib_cell,$(s),$(e),$(b))))))

$(BIB_OUT)/table.md: $(BIB_CELLS) $(BIB_DIR)/table.py
	$(PYTHON) $(BIB_DIR)/table.py "$(BIB_NOISE)" "$(BIB_EPOCHS)" "$(BIB_BATCHES)" \
	  $(BIB_OUT)/cells >$@.tmp
	mv $@.tmp $@
