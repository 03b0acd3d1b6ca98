# 004 (Nasr et al. 2021) Fig. 1 / Figs. 3, 7, 8 in 004's reduced Fashion-MNIST setting:
# central DP-SGD on the first 1,000 training images, mlp 784-32-10, Poisson lots at q 0.1,
# 100 steps, lr 1 (004 App. A's 0.15 is for 60 epochs: at 10 epochs it reaches 55% test
# accuracy, lr 1 69%), clip 1, noise calibrated for eps in {1, 2, 4, 10} at delta 1e-5; the
# threat models api, gradient-canary and malicious-dataset (trained), SGD_TRIALS trials
# per hypothesis each, in SGD_SHARDS shards (one process each: -j spreads them); and the
# malicious-dataset game simulated with SGD_SIM_TRIALS trials per hypothesis.
#   make -C experiments -j2 sgd   -> $(OUT)/sgd/fig1.md (table) and fig1.png
# Each cell: 004's Clopper-Pearson bound at the best threshold (eps-from-scores
# --thresholds max) and the honest one (Bonferroni over thresholds), delta 1e-5.
SGD_EPS ?= 1 2 4 10
SGD_THREATS ?= api gradient-canary malicious-dataset
SGD_TRIALS ?= 1000
SGD_SHARDS ?= 4
SGD_SIM_TRIALS ?= 1000000
SGD_SEED ?= 1
SGD_OPTIONS ?= --train-size 1000 --q 0.1 --steps 100 --delta 1e-5
SGD_LR ?= 1
# The learning rate of the threats that train (malicious-dataset sets 0 and refuses --lr).
sgd_lr = $(if $(filter malicious-dataset,$(1)),,--lr $(SGD_LR))
SGD_OUT ?= $(OUT)/sgd
SGD_DIR := $(dir $(lastword $(MAKEFILE_LIST)))sgd
SGD_SHARD_IDS := $(shell seq 0 $$(($(SGD_SHARDS) - 1)))
SGD_CELLS := $(foreach t,$(SGD_THREATS),$(foreach e,$(SGD_EPS),$(SGD_OUT)/cells/$(t)_$(e).json)) \
             $(foreach e,$(SGD_EPS),$(SGD_OUT)/cells/simulated_$(e).json)

.PHONY: sgd
all: sgd
sgd: $(SGD_OUT)/fig1.md $(SGD_OUT)/fig1.png
	@cat $(SGD_OUT)/fig1.md

# $(1): threat, $(2): eps, $(3): shard. Shard k plays trials [k T / S, (k+1) T / S).
define sgd_shard
$(SGD_OUT)/shards/$(1)_$(2)_$(3).csv:
	@mkdir -p $(SGD_OUT)/shards
	dp-train sgd --threat $(1) --eps $(2) $(SGD_OPTIONS) $(call sgd_lr,$(1)) --trials $(SGD_TRIALS) --seed $(SGD_SEED) --threads 1 --quiet \
	  --trial-range $$$$(($(3) * $(SGD_TRIALS) / $(SGD_SHARDS))):$$$$((($(3) + 1) * $(SGD_TRIALS) / $(SGD_SHARDS))) -o $$@
endef
$(foreach t,$(SGD_THREATS),$(foreach e,$(SGD_EPS),$(foreach k,$(SGD_SHARD_IDS),$(eval $(call sgd_shard,$(t),$(e),$(k))))))

# $(1): threat, $(2): eps. Shards merge in order: the first header, then every row.
define sgd_cell
$(SGD_OUT)/cells/$(1)_$(2).json: $(foreach k,$(SGD_SHARD_IDS),$(SGD_OUT)/shards/$(1)_$(2)_$(k).csv)
	@mkdir -p $(SGD_OUT)/cells
	(head -1 $$<; for f in $$^; do tail -n +2 $$$$f; done) >$(SGD_OUT)/cells/$(1)_$(2).csv
	$(SGD_DIR)/cell.sh $(1) $(2) $(SGD_OUT)/cells/$(1)_$(2).csv "dp-train sgd --threat $(1) --eps $(2) $(SGD_OPTIONS) $(call sgd_lr,$(1)) --trials 5 --seed $(SGD_SEED) --json --quiet" >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach t,$(SGD_THREATS),$(foreach e,$(SGD_EPS),$(eval $(call sgd_cell,$(t),$(e)))))

# $(1): eps: the simulated malicious-dataset game, one process.
define sgd_simulated
$(SGD_OUT)/cells/simulated_$(1).json:
	@mkdir -p $(SGD_OUT)/cells
	dp-train sgd --threat malicious-dataset --engine simulate --eps $(1) $(SGD_OPTIONS) --trials $(SGD_SIM_TRIALS) \
	  --seed $(SGD_SEED) --threads 1 --quiet -o $(SGD_OUT)/cells/simulated_$(1).csv
	$(SGD_DIR)/cell.sh simulated $(1) $(SGD_OUT)/cells/simulated_$(1).csv "dp-train sgd --threat malicious-dataset --engine simulate --eps $(1) $(SGD_OPTIONS) --trials 1 --json --quiet" >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach e,$(SGD_EPS),$(eval $(call sgd_simulated,$(e))))

$(SGD_OUT)/fig1.md: $(SGD_CELLS) $(SGD_DIR)/table.py
	$(PYTHON) $(SGD_DIR)/table.py $(SGD_OUT)/fig1.dat "$(SGD_EPS)" $(SGD_CELLS) >$@.tmp
	mv $@.tmp $@

$(SGD_OUT)/fig1.png: $(SGD_OUT)/fig1.md $(SGD_DIR)/fig1.gp
	gnuplot -e "data='$(SGD_OUT)/fig1.dat'; out='$@.tmp'" $(SGD_DIR)/fig1.gp
	mv $@.tmp $@
