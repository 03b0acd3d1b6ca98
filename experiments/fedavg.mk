# Andrew et al. 2024, Tables 3/4/6 and Figs. 1/2 on Fashion-MNIST: one-shot audits of DP-FedAvg runs.
#   make -C experiments fedavg [-j2]   -> $(OUT)/fedavg/{noise.txt,repeats.txt,anderson.txt,repeats.png,densities.png}
# noise.txt: no noise and the noise multipliers whose analytic eps is 300, 100, 30 (as Andrew et al. 2024
#   Tables 3/4; `rdp-compose --accountant pld --eps E --q 1 --steps 1 --delta 3000^-1.1`),
#   columns as Andrew et al. 2024, Table 3/4 (analytic eps, eps_lo-all, eps_est-all, eps_lo-final,
#   eps_est-final), each eps_lo also as Andrew et al. 2024 compute it (95% on each error rate, best
#   threshold, no correction: the *_max columns) + accuracy.
# repeats.txt / repeats.png: every seen canary inserted in exactly 1, 2, 4, 8 distinct
#   rounds (Andrew et al. 2024, Sec. 5.2, Fig. 2), for each noise multiplier; densities.png: the final-model
#   cosines of those runs against the null N(0, 1/d) (Andrew et al. 2024, Fig. 1); anderson.txt: the
#   Anderson-Darling statistic of each of those cosine sets (Andrew et al. 2024, Table 6).
#   make -C experiments fedavg-adaptive   -> $(OUT)/fedavg/adaptive.txt: the noise runs
#   again with adaptive clipping (Andrew et al. 2021, as Andrew et al. 2024's StackOverflow runs).
# Every run is the demo's configuration (scripts/demo) with its own noise and repeats;
# each is one independent process, so -j runs them side by side (each uses
# FEDAVG_THREADS threads). Override FEDAVG_ROUNDS etc. for a smaller study.
FEDAVG_NOISES ?= 0 0.0472 0.0906 0.199
FEDAVG_ADAPTIVE_NOISES ?= $(FEDAVG_NOISES)
FEDAVG_REPEATS ?= 1 2 4 8
FEDAVG_ROUNDS ?= 40
FEDAVG_CLIENTS ?= 3000
FEDAVG_THREADS ?= 1
FEDAVG_OUT ?= $(OUT)/fedavg
FEDAVG_DIR := $(dir $(lastword $(MAKEFILE_LIST)))fedavg
FEDAVG_COMMON = --model mlp --partition iid --sampling shuffle --local-epochs 2 --local-batch 16 --client-lr 0.1 \
  --clip 1 --server-lr 1 --server-momentum 0.9 --num-canaries 1000 --num-unseen 1000 --canary-seed 7 --seed 1 \
  --threads $(FEDAVG_THREADS) --quiet
FEDAVG_ARGS = $(FEDAVG_COMMON) --clients $(FEDAVG_CLIENTS) --clients-per-round 100 --rounds $(FEDAVG_ROUNDS) \
  --eval-every 10
# fedavg-schedule: Andrew et al. 2024's EMNIST schedule (3,383 users shuffled, 101 a round, 500
# rounds: 15 epochs) on Fashion-MNIST with 3,400 clients, each seen canary inserted in exactly
# one round (the one participation whose analytic eps Table 4 quotes), the noise multipliers whose
# one-round eps is 300 / 100 / 30 at delta = 3400^-1.1 (`rdp-compose --accountant pld --eps E --q 1
# --steps 1 --delta 1.3043e-4`); and StackOverflow's round count (2,048 rounds of 167) at eps 100.
FEDAVG_SCHEDULE_NOISES ?= 0 0.0473 0.0908 0.2
FEDAVG_SCHEDULE_SO_NOISES ?= 0.0908
FEDAVG_SCHEDULE_ARGS = $(FEDAVG_COMMON) --clients 3400 --canary-repeats 1 --eval-every 100
FEDAVG_EMNIST = --clients-per-round 101 --rounds 500
FEDAVG_SO = --clients-per-round 167 --rounds 2048

FEDAVG_NOISE_RUNS := $(foreach z,$(FEDAVG_NOISES),$(FEDAVG_OUT)/noise-$(z)/audit.json)
FEDAVG_REPEAT_RUNS := $(foreach z,$(FEDAVG_NOISES),$(foreach r,$(FEDAVG_REPEATS),$(FEDAVG_OUT)/repeats-$(r)-noise-$(z)/audit.json))

FEDAVG_ADAPTIVE_RUNS := $(foreach z,$(FEDAVG_ADAPTIVE_NOISES),$(FEDAVG_OUT)/adaptive-noise-$(z)/audit.json)

.PHONY: fedavg fedavg-adaptive fedavg-schedule
all: fedavg fedavg-adaptive fedavg-schedule
fedavg: $(FEDAVG_OUT)/noise.txt $(FEDAVG_OUT)/repeats.txt $(FEDAVG_OUT)/anderson.txt $(FEDAVG_OUT)/repeats.png \
  $(FEDAVG_OUT)/densities.png
	@cat $(FEDAVG_OUT)/noise.txt $(FEDAVG_OUT)/repeats.txt $(FEDAVG_OUT)/anderson.txt
fedavg-adaptive: $(FEDAVG_OUT)/adaptive.txt
	@cat $<
fedavg-schedule: $(FEDAVG_OUT)/schedule.txt
	@cat $<

# $(1): run folder name, $(2): extra dp-train options. Training writes run.json last (the
# folder is staged and renamed), so an audit.sh change re-audits without retraining.
# $(3): the base options (default $(FEDAVG_ARGS)).
define fedavg_run
$(FEDAVG_OUT)/$(1)/run.json:
	@mkdir -p $(FEDAVG_OUT)
	dp-train fedavg $(or $(3),$(FEDAVG_ARGS)) $(2) --force --out $(FEDAVG_OUT)/$(1)
$(FEDAVG_OUT)/$(1)/audit.json: $(FEDAVG_OUT)/$(1)/run.json $(FEDAVG_DIR)/audit.sh
	PYTHON=$(PYTHON) $(FEDAVG_DIR)/audit.sh $(FEDAVG_OUT)/$(1) >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach z,$(FEDAVG_NOISES),$(eval $(call fedavg_run,noise-$(z),--noise-multiplier $(z))))
$(foreach z,$(FEDAVG_NOISES),$(foreach r,$(FEDAVG_REPEATS),\
  $(eval $(call fedavg_run,repeats-$(r)-noise-$(z),--noise-multiplier $(z) --canary-repeats $(r)))))
$(foreach z,$(FEDAVG_ADAPTIVE_NOISES),$(eval $(call fedavg_run,adaptive-noise-$(z),--noise-multiplier $(z) --adaptive-clip)))
$(foreach z,$(FEDAVG_SCHEDULE_NOISES),$(eval $(call fedavg_run,emnist-noise-$(z),--noise-multiplier $(z) \
  $(FEDAVG_EMNIST),$(FEDAVG_SCHEDULE_ARGS))))
$(foreach z,$(FEDAVG_SCHEDULE_SO_NOISES),$(eval $(call fedavg_run,so-noise-$(z),--noise-multiplier $(z) \
  $(FEDAVG_SO),$(FEDAVG_SCHEDULE_ARGS))))
FEDAVG_SCHEDULE_RUNS := $(foreach z,$(FEDAVG_SCHEDULE_NOISES),$(FEDAVG_OUT)/emnist-noise-$(z)/audit.json) \
  $(foreach z,$(FEDAVG_SCHEDULE_SO_NOISES),$(FEDAVG_OUT)/so-noise-$(z)/audit.json)

# summarize.py MODE RUNS...: MODE is the table's name (noise, repeats, anderson, adaptive)
$(FEDAVG_OUT)/noise.txt: $(FEDAVG_NOISE_RUNS)
$(FEDAVG_OUT)/repeats.txt $(FEDAVG_OUT)/anderson.txt: $(FEDAVG_REPEAT_RUNS)
$(FEDAVG_OUT)/adaptive.txt: $(FEDAVG_ADAPTIVE_RUNS)
$(FEDAVG_OUT)/schedule.txt: $(FEDAVG_NOISE_RUNS) $(FEDAVG_SCHEDULE_RUNS)
$(FEDAVG_OUT)/noise.txt $(FEDAVG_OUT)/repeats.txt $(FEDAVG_OUT)/anderson.txt $(FEDAVG_OUT)/adaptive.txt \
    $(FEDAVG_OUT)/schedule.txt: \
    $(FEDAVG_OUT)/%.txt: $(FEDAVG_DIR)/summarize.py
	$(PYTHON) $(FEDAVG_DIR)/summarize.py $* $(filter %.json,$^) >$@.tmp
	mv $@.tmp $@

$(FEDAVG_OUT)/repeats.png: $(FEDAVG_OUT)/repeats.txt $(FEDAVG_DIR)/repeats.gp
	gnuplot -e "table='$<'; out='$@.tmp'; noises='$(FEDAVG_NOISES)'" $(FEDAVG_DIR)/repeats.gp
	mv $@.tmp $@

$(FEDAVG_OUT)/densities.png: $(FEDAVG_REPEAT_RUNS) $(FEDAVG_DIR)/densities.gp
	gnuplot -e "dir='$(FEDAVG_OUT)'; out='$@.tmp'; noises='$(FEDAVG_NOISES)'; repeats='$(FEDAVG_REPEATS)'" \
	  $(FEDAVG_DIR)/densities.gp
	mv $@.tmp $@
