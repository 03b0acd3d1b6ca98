# CI privacy gates on DP-SGD (issues 10 and 20): the malicious-dataset audit (Nasr et al. 2021's
# strongest threat model, the simulated 1-D game) judged two ways on the same scores:
#   eps gate:   eps-from-scores - --method clopper-pearson --delta 1e-5 --fail-above <analytic eps>
#   curve gate: eps-from-scores - --against-curve <curve> --fail-on-refute, the curve written by
#               rdp-compose --accountant pld --tradeoff for the run's noise, rate and steps
# on the correct trainer and on each --fault, at several trial counts: each gate's exit status
# (0 pass, 3 caught), the measured eps and the curve margin. Also the trained models (none, no-clip).
# And where the gates catch shuffle-as-poisson (ci-gate/shuffle.sh), beside the certified lower
# bound of shuffled batches (rdp-compose --sampling shuffle).
#   make -C experiments ci-gate   -> $(OUT)/ci-gate/gate.md, $(OUT)/ci-gate/shuffle.md,
#                                    $(OUT)/ci-gate/shuffle-train.md (the trained game)
GATE_EPS ?= 2
GATE_CLIP ?= 4
GATE_FAULTS ?= none no-clip noise-ignores-clip shuffle-as-poisson
GATE_TRIALS ?= 30 100 300 1000 3000 10000
GATE_OUT ?= $(OUT)/ci-gate
GATE_DIR := $(dir $(lastword $(MAKEFILE_LIST)))ci-gate

.PHONY: ci-gate
all: ci-gate
ci-gate: $(GATE_OUT)/gate.md $(GATE_OUT)/shuffle.md $(GATE_OUT)/shuffle-train.md
	@cat $^

$(GATE_OUT)/gate.md: $(GATE_DIR)/gate.sh
	@mkdir -p $(GATE_OUT)
	GATE_EPS=$(GATE_EPS) GATE_CLIP=$(GATE_CLIP) GATE_FAULTS="$(GATE_FAULTS)" GATE_TRIALS="$(GATE_TRIALS)" \
	  $(GATE_DIR)/gate.sh >$@.tmp
	mv $@.tmp $@

$(GATE_OUT)/shuffle.md: $(GATE_DIR)/shuffle.sh
	@mkdir -p $(GATE_OUT)
	$(GATE_DIR)/shuffle.sh >$@.tmp
	mv $@.tmp $@

# The trained game where the simulated one catches the fault, at 1,000 trials.
$(GATE_OUT)/shuffle-train.md: $(GATE_DIR)/shuffle.sh
	@mkdir -p $(GATE_OUT)
	GATE_SHUFFLE_ENGINE=train GATE_SHUFFLE_CELLS="0.3:10:1 0.3:10:10 0.4:10:1" GATE_SHUFFLE_TRIALS=1000 \
	  $(GATE_DIR)/shuffle.sh >$@.tmp
	mv $@.tmp $@
