# Maddock et al. 2023 (CANIFE) on Fashion-MNIST at sample level (each client one example).
#   make -C experiments -j2 canife   -> $(OUT)/canife/summary.md and eps_r.png
# R1, Andrew et al. 2024, Sec. 5.4: mlp 784-128-10, lots of 128 (q = 128/60000), clip 1, noise 0.2, one
#   epoch (469 rounds), an audit every 100 rounds, n = 100 mock rounds, design pool 512,
#   2,500 design steps; seeds CANIFE_SEEDS. Beside it, Andrew et al. 2024's one-shot random canaries on
#   the same training (dp-train fedavg, 60,000 one-example clients, 1,000 + 1,000 sphere
#   canaries sampled like clients).
# R2, Maddock et al. 2023, Fig. 3a/b in spirit: 64 clients per round, the model after 150 rounds, at noise
#   1e-3 (Maddock et al. 2023's sigma = 0) and 0.423: the spread of the audit scores against sigma.
# The recorded results (canife.md) were made when canife accounted by RDP only: every run here
# asks for --accountant rdp, which reproduces them (its z and theoretical eps_r; the default,
# pld, calibrates less noise for the same eps).
CANIFE_SEEDS ?= 1 2 3 4 5
CANIFE_STEPS ?= 2500
CANIFE_OUT ?= $(OUT)/canife
CANIFE_DIR := $(dir $(lastword $(MAKEFILE_LIST)))canife
CANIFE_R1 := --accountant rdp --noise-multiplier 0.2 --audit-every 100 --audit-rounds 100 --design-pool 512 --design-steps $(CANIFE_STEPS)
CANIFE_R2 := --accountant rdp --q 0.0010666666666666667 --rounds 151 --audit-every 150 --audit-rounds 100 --design-pool 512 \
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

# Andrew et al. 2024's random canaries on the same training: one-example clients, lots of 128.
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

# R4, Maddock et al. 2023, Fig. 1/4 at user level (`make -C experiments canife-user`, about 15 min of one
# core): Fashion-MNIST cut into 3,000 clients with label skew (Dirichlet 0.5), 100 clients
# per round (q = 1/30), 300 rounds (10 epochs), z calibrated for eps 10, 30, 50 at delta
# 1e-5; an audit every 20 rounds with 100 mock rounds, 100 mock clients from the test
# split, 1,000 design steps (not CANIFE_STEPS, to fit the time; one seed) -> user/summary.md, user/eps_r.png.
CANIFE_USER_EPS ?= 10 30 50
CANIFE_USER_SETTING := --accountant rdp --level user --clients 3000 --partition label-skew --alpha 0.5 --clients-per-round 100 \
                       --audit-every 20 --design-pool 100 --design-steps 1000
CANIFE_USER := $(CANIFE_USER_SETTING) --rounds 300 --audit-rounds 100
CANIFE_USER_RUNS := $(foreach e,$(CANIFE_USER_EPS),$(CANIFE_OUT)/user/eps_$(e)/run.json)

.PHONY: canife-user
canife-user: $(CANIFE_OUT)/user/summary.md $(CANIFE_OUT)/user/eps_r.png
	@cat $<

$(CANIFE_OUT)/user/eps_%/run.json:
	nice -n 10 dp-train canife $(CANIFE_USER) --eps $* --threads 1 --quiet --force --out $(CANIFE_OUT)/user/eps_$* >/dev/null

$(CANIFE_OUT)/user/summary.md: $(CANIFE_USER_RUNS) $(CANIFE_DIR)/summarize_user.sh
	$(CANIFE_DIR)/summarize_user.sh $(CANIFE_OUT)/user "$(CANIFE_USER_EPS)" >$@.tmp
	mv $@.tmp $@

$(CANIFE_OUT)/user/eps_r.png: $(CANIFE_OUT)/user/summary.md $(CANIFE_DIR)/user.gp
	gnuplot -e "dir='$(CANIFE_OUT)/user'" $(CANIFE_DIR)/user.gp >$@.tmp
	mv $@.tmp $@

# R4 with more mock rounds (`make -C experiments canife-user-mock`): 100 scores cap eps_r at
# 3.88, close to R4's eps_r at eps 50, so whether eps_r is flat from the first audit (R4) or
# rises early (Maddock et al. 2023, Fig. 4a) is read again with CANIFE_MOCK_N mock rounds per audit.
# R4's setting at eps 50's noise (z for eps 50 over 300 rounds, by RDP, as R4), the first
# CANIFE_MOCK_RUN_ROUNDS rounds (the early audits, where the two shapes differ: rounds 0, 20,
# ..., 80), each seed with 100 and with 1,000 mock rounds (the same training and canaries:
# only the mock rounds differ). The full version, R4's 300 rounds over 5 seeds:
#   make -C experiments -j canife-user-mock CANIFE_MOCK_RUN_ROUNDS=300 CANIFE_MOCK_SEEDS="1 2 3 4 5"
CANIFE_MOCK_N ?= 100 1000
CANIFE_MOCK_SEEDS ?= 1
CANIFE_MOCK_RUN_ROUNDS ?= 100
CANIFE_MOCK_RUNS := $(foreach s,$(CANIFE_MOCK_SEEDS),$(foreach n,$(CANIFE_MOCK_N),$(CANIFE_OUT)/user-mock/seed_$(s)_n_$(n)/run.json))

.PHONY: canife-user-mock
canife-user-mock: $(CANIFE_OUT)/user-mock/summary.md
	@cat $<

$(CANIFE_OUT)/user-mock/seed_%/run.json:
	@mkdir -p $(CANIFE_OUT)/user-mock
	nice -n 10 dp-train canife $(CANIFE_USER_SETTING) --rounds $(CANIFE_MOCK_RUN_ROUNDS) \
	  --noise-multiplier $$(rdp-compose --accountant rdp --eps 50 --q 0.03333333333333333 --steps 300 --delta 1e-5) \
	  --seed $(firstword $(subst _, ,$*)) --audit-rounds $(lastword $(subst _, ,$*)) \
	  --timings $(CANIFE_OUT)/user-mock/seed_$*.timings.json --threads 1 --quiet --force --out $(CANIFE_OUT)/user-mock/seed_$* >/dev/null

$(CANIFE_OUT)/user-mock/summary.md: $(CANIFE_MOCK_RUNS) $(CANIFE_DIR)/user_mock.py
	$(PYTHON) $(CANIFE_DIR)/user_mock.py $(CANIFE_OUT)/user-mock "$(CANIFE_MOCK_SEEDS)" "$(CANIFE_MOCK_N)" >$@.tmp
	mv $@.tmp $@

# R5, Maddock et al. 2023, Fig. 5b / 8a in spirit, at sample level (`make -C experiments -j2 canife-ablation`,
# about 3 min of CPU): R2's model after 150 rounds at noise 1e-3, crafted with Loss 2 (cov)
# or Loss 1 (mean) for 100, 300, 1,000 design steps; the spread of the audit scores (Maddock et al. 2023
# Fig. 3c's "mean standard deviation") says how orthogonal the canary came out.
CANIFE_ABLATION_STEPS ?= 100 300 1000
CANIFE_ABLATION := $(foreach l,cov mean,$(foreach t,$(CANIFE_ABLATION_STEPS),$(CANIFE_OUT)/ablation/$(l)_$(t)/run.json))

.PHONY: canife-ablation
canife-ablation: $(CANIFE_OUT)/ablation/summary.md
	@cat $<

$(CANIFE_OUT)/ablation/%/run.json:
	nice -n 10 dp-train canife $(subst --design-steps $(CANIFE_STEPS),,$(CANIFE_R2)) --noise-multiplier 0.001 \
	  --loss $(word 1,$(subst _, ,$*)) --design-steps $(word 2,$(subst _, ,$*)) --threads 1 --quiet --force \
	  --out $(CANIFE_OUT)/ablation/$* >/dev/null

$(CANIFE_OUT)/ablation/summary.md: $(CANIFE_ABLATION)
	{ echo "## R5: Loss 2 (cov) against Loss 1 (mean) by design steps, the audit after 150 rounds at noise 1e-3"; \
	  echo; echo "| loss | design steps | health | sd without | sd with | mean without | mean with |"; \
	  echo "|---|---|---|---|---|---|---|"; \
	  for l in cov mean; do for t in $(CANIFE_ABLATION_STEPS); do \
	    tail -1 $(CANIFE_OUT)/ablation/$${l}_$$t/audits.csv | \
	      awk -F, -v l=$$l -v t=$$t '{ printf "| %s | %s | %.4f | %.4f | %.4f | %.4f | %.4f |\n", l, t, $$4, $$11, $$9, $$10, $$8 }'; \
	  done; done; } >$@.tmp
	mv $@.tmp $@

# Andrew et al. 2024, Sec. 5.4 settled (`make -C experiments -j2 canife-sec54`): CANIFE's eps_hat
# recomputed from R1's audits under every reading of Maddock et al.'s composition (sec54.py; the
# audits of seeds 1-5 are saved in experiments/canife/r1/, so `CANIFE_R1_DIR=canife/r1` needs no
# training), and Andrew et al.'s random canaries inserted exactly once, 5 seeds (about 3 min of one
# core each) -> $(CANIFE_OUT)/sec54.md.
CANIFE_R1_DIR ?= $(CANIFE_OUT)
CANIFE_RANDOM_SEEDS ?= 1 2 3 4 5
CANIFE_RANDOM1 := $(foreach s,$(CANIFE_RANDOM_SEEDS),$(CANIFE_OUT)/random1_$(s)/run.json)

.PHONY: canife-sec54
canife-sec54: $(CANIFE_OUT)/sec54.md
	@cat $<

$(CANIFE_OUT)/random1_%/run.json:
	dp-train fedavg --clients 60000 --sampling poisson --q 0.0021333333333333334 --rounds 469 --local-batch 1 \
	  --client-lr 1 --server-lr 1 --server-momentum 0 --noise-multiplier 0.2 --num-canaries 1000 --num-unseen 1000 \
	  --canary-repeats 1 --canary-seed $* --seed $* --delta 1e-5 --eval-every 469 --threads 1 --quiet --force \
	  --out $(CANIFE_OUT)/random1_$* >/dev/null

$(CANIFE_OUT)/sec54.md: $(if $(filter $(CANIFE_OUT),$(CANIFE_R1_DIR)),$(foreach s,$(CANIFE_SEEDS),$(CANIFE_OUT)/r1_$(s)/run.json)) \
                        $(CANIFE_RANDOM1) $(CANIFE_DIR)/sec54.py $(CANIFE_DIR)/random_once.sh
	{ $(PYTHON) $(CANIFE_DIR)/sec54.py $(CANIFE_R1_DIR) $(CANIFE_SEEDS); echo; \
	  $(CANIFE_DIR)/random_once.sh $(CANIFE_OUT) "$(CANIFE_RANDOM_SEEDS)"; } >$@.tmp
	mv $@.tmp $@

# R6, Maddock et al. 2023, Figs. 3c, 5a and 9 at sample level (`make -C experiments -j2 canife-figs`):
# the model after 150 rounds of M clients (q = M/60000) at noise 1e-3 (Maddock et al.'s sigma = 0),
# one audit (100 mock rounds) with CANIFE_FIG_STEPS design steps, and the audit scores' mean
# standard deviation (Maddock et al. 2023, Fig. 3c's y-axis), calibrated attack accuracy
# (max-accuracy threshold) and health. Fig. 3c: M x design pool; Fig. 5a: random or sample
# initialisation x design pool (M = 64); Fig. 9: the gradient-norm constant C_n at clip 1
# (M = 64, pool 512), CANIFE_FIG9_SEEDS attacks each (Maddock et al.: 10) -> canife/figs.md.
CANIFE_FIG_STEPS ?= 1000
CANIFE_FIG_CLIENTS ?= 16 64 256
CANIFE_FIG_POOLS ?= 128 512 2048
CANIFE_FIG9_CONSTANTS ?= 0.1 1 10 50 100 600 1000
CANIFE_FIG9_SEEDS ?= 1 2
# run folder: M_pool_init_constant_seed
CANIFE_FIG_RUNS := $(sort \
  $(foreach m,$(CANIFE_FIG_CLIENTS),$(foreach p,$(CANIFE_FIG_POOLS),$(CANIFE_OUT)/figs/$(m)_$(p)_random_1_1/run.json)) \
  $(foreach p,$(CANIFE_FIG_POOLS),$(CANIFE_OUT)/figs/64_$(p)_sample_1_1/run.json) \
  $(foreach c,$(CANIFE_FIG9_CONSTANTS),$(foreach s,$(CANIFE_FIG9_SEEDS),$(CANIFE_OUT)/figs/64_512_random_$(c)_$(s)/run.json)))
canife_fig_word = $(word $(2),$(subst _, ,$(1)))

.PHONY: canife-figs
canife-figs: $(CANIFE_OUT)/figs/figs.md
	@cat $<

$(CANIFE_OUT)/figs/%/run.json:
	nice -n 10 dp-train canife --accountant rdp --noise-multiplier 0.001 --rounds 151 --audit-every 150 --audit-rounds 100 \
	  --design-steps $(CANIFE_FIG_STEPS) --q $$(awk 'BEGIN { printf "%.17g", $(call canife_fig_word,$*,1) / 60000 }') \
	  --design-pool $(call canife_fig_word,$*,2) --init $(call canife_fig_word,$*,3) \
	  --norm-constant $(call canife_fig_word,$*,4) --seed $(call canife_fig_word,$*,5) \
	  --threads 1 --quiet --force --out $(CANIFE_OUT)/figs/$* >/dev/null

$(CANIFE_OUT)/figs/figs.md: $(CANIFE_FIG_RUNS) $(CANIFE_DIR)/figs.py
	$(PYTHON) $(CANIFE_DIR)/figs.py $(CANIFE_OUT)/figs >$@.tmp
	mv $@.tmp $@
