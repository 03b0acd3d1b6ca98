# 000 (CANIFE) on Fashion-MNIST at sample level (each client one example).
#   make -C experiments -j2 canife   -> $(OUT)/canife/summary.md and eps_r.png
# R1, 003 Sec. 5.4: mlp 784-128-10, lots of 128 (q = 128/60000), clip 1, noise 0.2, one
#   epoch (469 rounds), an audit every 100 rounds, n = 100 mock rounds, design pool 512,
#   2,500 design steps; seeds CANIFE_SEEDS. Beside it, 003's one-shot random canaries on
#   the same training (dp-train fedavg, 60,000 one-example clients, 1,000 + 1,000 sphere
#   canaries sampled like clients).
# R2, 000 Fig. 3a/b in spirit: 64 clients per round, the model after 150 rounds, at noise
#   1e-3 (000's sigma = 0) and 0.423: the spread of the audit scores against sigma.
CANIFE_SEEDS ?= 1 2 3 4 5
CANIFE_STEPS ?= 2500
CANIFE_OUT ?= $(OUT)/canife
CANIFE_DIR := $(dir $(lastword $(MAKEFILE_LIST)))canife
CANIFE_R1 := --noise-multiplier 0.2 --audit-every 100 --audit-rounds 100 --design-pool 512 --design-steps $(CANIFE_STEPS)
CANIFE_R2 := --q 0.0010666666666666667 --rounds 151 --audit-every 150 --audit-rounds 100 --design-pool 512 \
             --design-steps $(CANIFE_STEPS)
CANIFE_RUNS := $(foreach s,$(CANIFE_SEEDS),$(CANIFE_OUT)/r1_$(s)/run.json) \
               $(CANIFE_OUT)/r2_0.001/run.json $(CANIFE_OUT)/r2_0.423/run.json $(CANIFE_OUT)/random/run.json

.PHONY: canife
all: canife
canife: $(CANIFE_OUT)/summary.md $(CANIFE_OUT)/eps_r.png
	@cat $<

$(CANIFE_OUT)/r1_%/run.json:
	dp-train canife $(CANIFE_R1) --seed $* --threads 1 --quiet --force --out $(CANIFE_OUT)/r1_$* >/dev/null

$(CANIFE_OUT)/r2_%/run.json:
	dp-train canife $(CANIFE_R2) --noise-multiplier $* --threads 1 --quiet --force --out $(CANIFE_OUT)/r2_$* >/dev/null

# 003's random canaries on the same training: one-example clients, lots of 128.
$(CANIFE_OUT)/random/run.json:
	dp-train fedavg --clients 60000 --sampling poisson --q 0.0021333333333333334 --rounds 469 --local-batch 1 \
	  --client-lr 1 --server-lr 1 --server-momentum 0 --noise-multiplier 0.2 --num-canaries 1000 --num-unseen 1000 \
	  --delta 1e-5 --eval-every 469 --threads 1 --quiet --force --out $(CANIFE_OUT)/random >/dev/null

$(CANIFE_OUT)/summary.md: $(CANIFE_RUNS) $(CANIFE_DIR)/summarize.sh
	$(CANIFE_DIR)/summarize.sh $(CANIFE_OUT) "$(CANIFE_SEEDS)" >$@.tmp
	mv $@.tmp $@

$(CANIFE_OUT)/eps_r.png: $(CANIFE_OUT)/summary.md $(CANIFE_DIR)/eps_r.gp
	gnuplot -e "data='$(CANIFE_OUT)/eps_r.dat'; out='$@.tmp'" $(CANIFE_DIR)/eps_r.gp
	mv $@.tmp $@
