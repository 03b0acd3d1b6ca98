# 002 Fig. 2 (and App. Fig. 6) on Fashion-MNIST: the LDP privacy test of LDP-SGD for six
# crafters x two distinguishers x eps in {0.5, 1, 2, 4}, K trials each.
#   make -C experiments ldp [-j2]   -> $(OUT)/ldp/fig2.md (table) and fig2.png (bar chart)
# Columns: white-box (Eq. 5); black-box (Table 1's Eq. 4/6/7) with the unbiased server
# constant; black-box with Alg. 2's constant as 002 prints it (--printed-constant, a
# d times smaller server step). Each cell: Eq. 3's point estimate (eps-from-scores
# --method threshold) and the 95% Clopper-Pearson lower bound. Every run is one process
# (-j runs them side by side); override LDP_TRIALS, LDP_EPS, ... for a smaller study.
LDP_EPS ?= 0.5 1 2 4
LDP_CRAFTERS ?= benign input-perturbation parameter-retrogression gradient-flip collusion dummy-gradient
LDP_TRIALS ?= 10000
LDP_SEED ?= 1
LDP_THREADS ?= 1
LDP_OUT ?= $(OUT)/ldp
LDP_DIR := $(dir $(lastword $(MAKEFILE_LIST)))ldp
LDP_COLUMNS := white black black-printed
ldp_options_white := --distinguisher white-box
ldp_options_black := --distinguisher black-box
ldp_options_black-printed := --distinguisher black-box --printed-constant

LDP_RUNS := $(foreach c,$(LDP_CRAFTERS),$(foreach k,$(LDP_COLUMNS),$(foreach e,$(LDP_EPS),$(LDP_OUT)/runs/$(c)_$(k)_$(e).json)))

.PHONY: ldp
all: ldp
ldp: $(LDP_OUT)/fig2.md $(LDP_OUT)/fig2.png
	@cat $(LDP_OUT)/fig2.md

# $(1): crafter, $(2): column, $(3): eps
define ldp_run
$(LDP_OUT)/runs/$(1)_$(2)_$(3).json:
	@mkdir -p $(LDP_OUT)/runs
	PYTHON=$(PYTHON) $(LDP_DIR)/run.sh $(LDP_OUT)/runs/$(1)_$(2)_$(3) --crafter $(1) $(ldp_options_$(2)) \
	  --eps $(3) --trials $(LDP_TRIALS) --seed $(LDP_SEED) --threads $(LDP_THREADS)
endef
$(foreach c,$(LDP_CRAFTERS),$(foreach k,$(LDP_COLUMNS),$(foreach e,$(LDP_EPS),$(eval $(call ldp_run,$(c),$(k),$(e))))))

# table.py writes fig2.dat (the plot's data) beside the table.
$(LDP_OUT)/fig2.md: $(LDP_RUNS) $(LDP_DIR)/table.py
	$(PYTHON) $(LDP_DIR)/table.py $(LDP_OUT)/fig2.dat $(LDP_RUNS) >$(LDP_OUT)/fig2.md.tmp
	mv $(LDP_OUT)/fig2.md.tmp $(LDP_OUT)/fig2.md

$(LDP_OUT)/fig2.png: $(LDP_OUT)/fig2.md $(LDP_DIR)/fig2.gp
	gnuplot -e "data='$(LDP_OUT)/fig2.dat'; out='$@.tmp'; crafters='$(LDP_CRAFTERS)'" $(LDP_DIR)/fig2.gp
	mv $@.tmp $@

# 002 Sec. 4.1 averages ten measurements: the white-box test of the crafters that should
# reach eps, repeated with seeds 1..10 (each seed also re-draws theta_t), mean and sd.
#   make -C experiments ldp-average   -> $(LDP_OUT)/average.md
LDP_AVERAGE_CRAFTERS ?= gradient-flip collusion dummy-gradient
LDP_AVERAGE_SEEDS ?= 1 2 3 4 5 6 7 8 9 10
LDP_AVERAGE_EPS ?= $(LDP_EPS)
LDP_AVERAGE_RUNS := $(foreach c,$(LDP_AVERAGE_CRAFTERS),$(foreach e,$(LDP_AVERAGE_EPS),$(foreach s,$(LDP_AVERAGE_SEEDS),$(LDP_OUT)/seeds/$(c)_$(e)_$(s).json)))

.PHONY: ldp-average
ldp: ldp-average
ldp-average: $(LDP_OUT)/average.md
	@cat $<

# $(1): crafter, $(2): eps, $(3): seed
define ldp_seed_run
$(LDP_OUT)/seeds/$(1)_$(2)_$(3).json:
	@mkdir -p $(LDP_OUT)/seeds
	PYTHON=$(PYTHON) $(LDP_DIR)/run.sh $(LDP_OUT)/seeds/$(1)_$(2)_$(3) --crafter $(1) --distinguisher white-box \
	  --eps $(2) --trials $(LDP_TRIALS) --seed $(3) --threads $(LDP_THREADS)
endef
$(foreach c,$(LDP_AVERAGE_CRAFTERS),$(foreach e,$(LDP_AVERAGE_EPS),$(foreach s,$(LDP_AVERAGE_SEEDS),$(eval $(call ldp_seed_run,$(c),$(e),$(s))))))

$(LDP_OUT)/average.md: $(LDP_AVERAGE_RUNS) $(LDP_DIR)/average.py
	$(PYTHON) $(LDP_DIR)/average.py $(LDP_AVERAGE_RUNS) >$@.tmp
	mv $@.tmp $@
