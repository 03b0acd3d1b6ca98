# The regime map of shuffled batches (issue 23): where a certified lower bound on the eps of
# DP-SGD with shuffled batches (Chua et al. 2024's pair, rdp-compose --sampling shuffle) exceeds
# the Poisson upper bound at q = 1/B over E*B steps that pipelines report for them, over noise
# multipliers, epochs and batches per epoch, at one delta. One rdp-compose process a cell.
#   make -C experiments [-j2] shuffle   -> $(OUT)/shuffle/map.md
SHUFFLE_NOISE ?= 0.4 0.6 0.8 1 1.5 2
SHUFFLE_EPOCHS ?= 1 3 10 30 100
SHUFFLE_BATCHES ?= 10 100 1000
SHUFFLE_DELTA ?= 1e-5
SHUFFLE_OUT ?= $(OUT)/shuffle
SHUFFLE_DIR := $(dir $(lastword $(MAKEFILE_LIST)))shuffle
SHUFFLE_CELLS := $(foreach s,$(SHUFFLE_NOISE),$(foreach e,$(SHUFFLE_EPOCHS),$(foreach b,$(SHUFFLE_BATCHES),\
  $(SHUFFLE_OUT)/cells/$(s)_$(e)_$(b).json)))

.PHONY: shuffle
all: shuffle
shuffle: $(SHUFFLE_OUT)/map.md
	@cat $<

# $(1): noise, $(2): epochs, $(3): batches. The cell's JSON, and its wall and CPU time.
define shuffle_cell
$(SHUFFLE_OUT)/cells/$(1)_$(2)_$(3).json:
	@mkdir -p $(SHUFFLE_OUT)/cells
	/usr/bin/time -f '%e %U %S %M' -o $$(@:.json=.time) rdp-compose --sampling shuffle --sigma $(1) \
	  --epochs $(2) --batches $(3) --delta $(SHUFFLE_DELTA) --threads 1 --json >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach s,$(SHUFFLE_NOISE),$(foreach e,$(SHUFFLE_EPOCHS),$(foreach b,$(SHUFFLE_BATCHES),\
  $(eval $(call shuffle_cell,$(s),$(e),$(b))))))

$(SHUFFLE_OUT)/map.md: $(SHUFFLE_CELLS) $(SHUFFLE_DIR)/table.py
	$(PYTHON) $(SHUFFLE_DIR)/table.py "$(SHUFFLE_NOISE)" "$(SHUFFLE_EPOCHS)" "$(SHUFFLE_BATCHES)" \
	  $(SHUFFLE_OUT)/cells >$@.tmp
	mv $@.tmp $@
