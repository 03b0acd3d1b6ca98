# Nasr et al. 2021 Fig. 1 / Figs. 3, 7, 8 in Nasr et al.'s reduced Fashion-MNIST setting:
# central DP-SGD on the first 1,000 training images, mlp 784-32-10, Poisson lots at q 0.1,
# 100 steps, lr 1 (Nasr et al. 2021, App. A's 0.15 is for 60 epochs: at 10 epochs it reaches 55% test
# accuracy, lr 1 69%), clip 1, noise calibrated for eps in {1, 2, 4, 10} at delta 1e-5; the
# six threat models of Nasr et al. 2021, Table I: api, gradient-canary and malicious-dataset (trained)
# with SGD_TRIALS trials per hypothesis, static-poison and intermediate-poison with
# SGD_POISON_TRIALS, adaptive-poison with SGD_ADAPTIVE_TRIALS (fewer by default, so that
# the whole figure fits in well under an hour on 2 cores), each in SGD_SHARDS shards (one
# process each: -j spreads them); and the malicious-dataset game simulated with
# SGD_SIM_TRIALS trials per hypothesis. D2 (intermediate and adaptive poison) reduces the
# losses by their max at eps <= 2 and their mean above, the better one in Nasr et al. 2021, Sec. IV-C.
#   make -C experiments -j2 sgd   -> $(OUT)/sgd/fig1.md (table) and fig1.png
#   the full version, 1,000 trials everywhere, sharded for a cluster's job runner (its own
#   OUT: shard files are named by threat, eps and shard, not by the number of trials):
#   make -C experiments -j200 sgd OUT=out-full SGD_POISON_TRIALS=1000 SGD_ADAPTIVE_TRIALS=1000 SGD_SHARDS=50
# Each cell: Nasr et al. 2021's Clopper-Pearson bound at the best threshold (eps-from-scores
# --thresholds max) and the honest one (Bonferroni over thresholds), delta 1e-5.
SGD_EPS ?= 1 2 4 10
SGD_THREATS ?= api static-poison intermediate-poison adaptive-poison gradient-canary malicious-dataset
SGD_TRIALS ?= 1000
SGD_POISON_TRIALS ?= 300
SGD_ADAPTIVE_TRIALS ?= 150
SGD_SHARDS ?= 4
SGD_SIM_TRIALS ?= 1000000
# The eps of the simulated malicious-dataset cells (none: no simulated column).
SGD_SIM_EPS ?= $(SGD_EPS)
SGD_SEED ?= 1
SGD_OPTIONS ?= --train-size 1000 --q 0.1 --steps 100 --delta 1e-5
SGD_LR ?= 1
# The learning rate of the threats that train (malicious-dataset sets 0 and refuses --lr).
sgd_lr = $(if $(filter malicious-dataset,$(1)),,--lr $(SGD_LR))
# $(1): threat -> its trials per hypothesis.
sgd_trials = $(if $(filter adaptive-poison,$(1)),$(SGD_ADAPTIVE_TRIALS),$(if $(filter static-poison intermediate-poison,$(1)),$(SGD_POISON_TRIALS),$(SGD_TRIALS)))
# $(1): threat, $(2): eps -> D2's reduction for the threats that read every model.
sgd_reduce = $(if $(filter intermediate-poison adaptive-poison,$(1)),--reduce $(if $(filter 1 2,$(2)),max,mean))
sgd_threat = --threat $(1) --eps $(2) $(SGD_OPTIONS) $(call sgd_lr,$(1)) $(call sgd_reduce,$(1),$(2))
SGD_OUT ?= $(OUT)/sgd
SGD_DIR := $(dir $(lastword $(MAKEFILE_LIST)))sgd
SGD_SHARD_IDS := $(shell seq 0 $$(($(SGD_SHARDS) - 1)))
SGD_CELLS := $(foreach t,$(SGD_THREATS),$(foreach e,$(SGD_EPS),$(SGD_OUT)/cells/$(t)_$(e).json)) \
             $(foreach e,$(SGD_SIM_EPS),$(SGD_OUT)/cells/simulated_$(e).json)

.PHONY: sgd
all: sgd
sgd: $(SGD_OUT)/fig1.md $(SGD_OUT)/fig1.png
	@cat $(SGD_OUT)/fig1.md

# $(1): threat, $(2): eps, $(3): shard. Shard k plays trials [k T / S, (k+1) T / S).
define sgd_shard
$(SGD_OUT)/shards/$(1)_$(2)_$(3).csv:
	@mkdir -p $(SGD_OUT)/shards
	nice -n 10 dp-train sgd $(call sgd_threat,$(1),$(2)) --trials $(call sgd_trials,$(1)) --seed $(SGD_SEED) --threads 1 --quiet \
	  --trial-range $$$$(($(3) * $(call sgd_trials,$(1)) / $(SGD_SHARDS))):$$$$((($(3) + 1) * $(call sgd_trials,$(1)) / $(SGD_SHARDS))) -o $$@
endef
$(foreach t,$(SGD_THREATS),$(foreach e,$(SGD_EPS),$(foreach k,$(SGD_SHARD_IDS),$(eval $(call sgd_shard,$(t),$(e),$(k))))))

# $(1): threat, $(2): eps. The shards merged: eps-from-scores checks them (one configuration
# and seed, trials 0:N once each, or exit 1 naming the files and trials); they are listed in
# trial order, so their rows without the shard columns are the unsharded run's CSV, byte for
# byte (cells/THREAT_EPS.csv, which estimators.mk reads too).
define sgd_cell
$(SGD_OUT)/cells/$(1)_$(2).json: $(foreach k,$(SGD_SHARD_IDS),$(SGD_OUT)/shards/$(1)_$(2)_$(k).csv) $(SGD_DIR)/cell.sh
	@mkdir -p $(SGD_OUT)/cells
	eps-from-scores $$(filter %.csv,$$^) --method threshold >/dev/null
	(cut -d, -f1-3 $$<; for f in $$(wordlist 2,$(SGD_SHARDS),$$(filter %.csv,$$^)); do tail -n +2 $$$$f | cut -d, -f1-3; done) \
	  >$(SGD_OUT)/cells/$(1)_$(2).csv
	$(SGD_DIR)/cell.sh $(1) $(2) $(SGD_OUT)/cells/$(1)_$(2).csv "dp-train sgd $(call sgd_threat,$(1),$(2)) --trials 5 --seed $(SGD_SEED) --json --quiet" >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach t,$(SGD_THREATS),$(foreach e,$(SGD_EPS),$(eval $(call sgd_cell,$(t),$(e)))))

# $(1): eps: the simulated malicious-dataset game, one process.
define sgd_simulated
$(SGD_OUT)/cells/simulated_$(1).csv:
	@mkdir -p $(SGD_OUT)/cells
	dp-train sgd --threat malicious-dataset --engine simulate --eps $(1) $(SGD_OPTIONS) --trials $(SGD_SIM_TRIALS) \
	  --seed $(SGD_SEED) --threads 1 --quiet -o $$@
$(SGD_OUT)/cells/simulated_$(1).json: $(SGD_OUT)/cells/simulated_$(1).csv $(SGD_DIR)/cell.sh
	$(SGD_DIR)/cell.sh simulated $(1) $(SGD_OUT)/cells/simulated_$(1).csv "dp-train sgd --threat malicious-dataset --engine simulate --eps $(1) $(SGD_OPTIONS) --trials 1 --json --quiet" >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach e,$(SGD_SIM_EPS),$(eval $(call sgd_simulated,$(e))))

# sgd-poisons: Nasr et al. 2021's Figs. 4-6 (static, intermediate and adaptive poison) at
# 1,000 trials per hypothesis and eps 2, 4, 10, with two queries: C2's crafted outlier (as
# the sgd target) and a natural one (--craft-steps 0: C2's randomly drawn example of
# D_shadow with its own label, no ascent), which the model learns, so that its gradient
# falls below the clip norm: there, to first order, a fresh poison at the clip norm moves
# the query's loss by C/||grad|| times what the query inserted itself does (sgd.md). Each
# query is the sgd target in its own folder ($(OUT)/sgd-poisons/QUERY/fig1.md).
SGD_POISONS_EPS ?= 2 4 10
SGD_POISONS_TRIALS ?= 1000
SGD_POISONS_QUERIES ?= crafted natural
SGD_POISONS_THREATS ?= static-poison intermediate-poison adaptive-poison
sgd_query_options = $(if $(filter natural,$(1)),--craft-steps 0)
.PHONY: sgd-poisons
all: sgd-poisons
sgd-poisons: $(foreach q,$(SGD_POISONS_QUERIES),$(OUT)/sgd-poisons/$(q)/fig1.md)
	@for q in $(SGD_POISONS_QUERIES); do echo "query: $$q"; cat $(OUT)/sgd-poisons/$$q/fig1.md; done
.PHONY: FORCE
FORCE:
$(OUT)/sgd-poisons/%/fig1.md: FORCE
	$(MAKE) --no-print-directory $@ SGD_OUT=$(OUT)/sgd-poisons/$* SGD_EPS="$(SGD_POISONS_EPS)" SGD_SIM_EPS= \
	  SGD_THREATS="$(SGD_POISONS_THREATS)" SGD_POISON_TRIALS=$(SGD_POISONS_TRIALS) \
	  SGD_ADAPTIVE_TRIALS=$(SGD_POISONS_TRIALS) SGD_OPTIONS="$(SGD_OPTIONS) $(call sgd_query_options,$*)"

$(SGD_OUT)/fig1.md: $(SGD_CELLS) $(SGD_DIR)/table.py
	$(PYTHON) $(SGD_DIR)/table.py $(SGD_OUT)/fig1.dat "$(SGD_EPS)" $(SGD_CELLS) >$@.tmp
	mv $@.tmp $@

$(SGD_OUT)/fig1.png: $(SGD_OUT)/fig1.md $(SGD_DIR)/fig1.gp
	gnuplot -e "data='$(SGD_OUT)/fig1.dat'; out='$@.tmp'" $(SGD_DIR)/fig1.gp
	mv $@.tmp $@
