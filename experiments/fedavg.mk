# 003 Tables 3/4 and Figs. 1/2 on Fashion-MNIST: one-shot audits of DP-FedAvg runs.
#   make -C experiments fedavg [-j2]   -> $(OUT)/fedavg/{noise.txt,repeats.txt,repeats.png,densities.png}
# noise.txt: noise multipliers 0 and three increasing values, columns as 003 Table 3/4
#   (analytic eps, eps_lo-all, eps_est-all, eps_lo-final, eps_est-final) + accuracy.
# repeats.txt / repeats.png: every seen canary inserted in exactly 1, 2, 4, 8 distinct
#   rounds (003 Sec. 5.2, Fig. 2), for each noise multiplier; densities.png: the final-model
#   cosines of those runs against the null N(0, 1/d) (003 Fig. 1).
# Every run is the demo's configuration (scripts/demo) with its own noise and repeats;
# each is one independent process, so -j runs them side by side (each uses
# FEDAVG_THREADS threads). Override FEDAVG_ROUNDS etc. for a smaller study.
FEDAVG_NOISES ?= 0 0.25 0.5 1
FEDAVG_REPEATS ?= 1 2 4 8
FEDAVG_ROUNDS ?= 40
FEDAVG_CLIENTS ?= 3000
FEDAVG_THREADS ?= 1
FEDAVG_OUT ?= $(OUT)/fedavg
FEDAVG_DIR := $(dir $(lastword $(MAKEFILE_LIST)))fedavg
FEDAVG_ARGS = --model mlp --clients $(FEDAVG_CLIENTS) --partition iid --sampling shuffle --clients-per-round 100 \
  --rounds $(FEDAVG_ROUNDS) --local-epochs 2 --local-batch 16 --client-lr 0.1 --clip 1 --server-lr 1 \
  --server-momentum 0.9 --num-canaries 1000 --num-unseen 1000 --canary-seed 7 --seed 1 --eval-every 10 \
  --threads $(FEDAVG_THREADS) --quiet

FEDAVG_NOISE_RUNS := $(foreach z,$(FEDAVG_NOISES),$(FEDAVG_OUT)/noise-$(z)/audit.json)
FEDAVG_REPEAT_RUNS := $(foreach z,$(FEDAVG_NOISES),$(foreach r,$(FEDAVG_REPEATS),$(FEDAVG_OUT)/repeats-$(r)-noise-$(z)/audit.json))

.PHONY: fedavg
all: fedavg
fedavg: $(FEDAVG_OUT)/noise.txt $(FEDAVG_OUT)/repeats.txt $(FEDAVG_OUT)/repeats.png $(FEDAVG_OUT)/densities.png
	@cat $(FEDAVG_OUT)/noise.txt $(FEDAVG_OUT)/repeats.txt

# $(1): run folder name, $(2): extra dp-train options
define fedavg_run
$(FEDAVG_OUT)/$(1)/audit.json:
	@mkdir -p $(FEDAVG_OUT)
	dp-train fedavg $(FEDAVG_ARGS) $(2) --force --out $(FEDAVG_OUT)/$(1)
	PYTHON=$(PYTHON) $(FEDAVG_DIR)/audit.sh $(FEDAVG_OUT)/$(1) >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach z,$(FEDAVG_NOISES),$(eval $(call fedavg_run,noise-$(z),--noise-multiplier $(z))))
$(foreach z,$(FEDAVG_NOISES),$(foreach r,$(FEDAVG_REPEATS),\
  $(eval $(call fedavg_run,repeats-$(r)-noise-$(z),--noise-multiplier $(z) --canary-repeats $(r)))))

$(FEDAVG_OUT)/noise.txt: $(FEDAVG_NOISE_RUNS) $(FEDAVG_DIR)/summarize.py
	$(PYTHON) $(FEDAVG_DIR)/summarize.py noise $(FEDAVG_NOISE_RUNS) >$@.tmp
	mv $@.tmp $@

$(FEDAVG_OUT)/repeats.txt: $(FEDAVG_REPEAT_RUNS) $(FEDAVG_DIR)/summarize.py
	$(PYTHON) $(FEDAVG_DIR)/summarize.py repeats $(FEDAVG_REPEAT_RUNS) >$@.tmp
	mv $@.tmp $@

$(FEDAVG_OUT)/repeats.png: $(FEDAVG_OUT)/repeats.txt $(FEDAVG_DIR)/repeats.gp
	gnuplot -e "table='$<'; out='$@.tmp'; noises='$(FEDAVG_NOISES)'" $(FEDAVG_DIR)/repeats.gp
	mv $@.tmp $@

$(FEDAVG_OUT)/densities.png: $(FEDAVG_REPEAT_RUNS) $(FEDAVG_DIR)/densities.gp
	gnuplot -e "dir='$(FEDAVG_OUT)'; out='$@.tmp'; noises='$(FEDAVG_NOISES)'; repeats='$(FEDAVG_REPEATS)'" \
	  $(FEDAVG_DIR)/densities.gp
	mv $@.tmp $@
