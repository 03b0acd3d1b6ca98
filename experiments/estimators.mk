# Every estimator of eps-from-scores on the same scores, beside the analytic epsilon (issue 14):
#   make -C experiments estimators [-j2]   -> $(OUT)/estimators/table.md (experiments/estimators.md)
# Audits: the Gaussian sum query (Andrew et al. 2024, Alg. 1, d = 10^6) at sigma 4.22, 1.54, 0.541 (eps 1, 3, 10
#   at delta 1e-6), M = 2000 sphere canaries each inserted with probability 1/2 (the one-run
#   design), seeds ESTIMATORS_SEEDS; and the final models of the fedavg noise runs (fedavg.mk:
#   1000 seen + 1000 unseen canaries, delta 3000^-1.1; trained first if missing, ~1 min each).
# Each audit runs estimators/audit.sh: threshold, Clopper-Pearson, Jeffreys, gauss-fit with its
#   95% bootstrap interval (B = 1000), one-run, one-run f-DP and GDP on seen vs unseen; Jeffreys and
#   gauss-fit (with bootstrap) against the exact cosine null; the attack metrics.
ESTIMATORS_SIGMAS ?= 4.22 1.54 0.541
ESTIMATORS_SEEDS ?= 1 2 3
ESTIMATORS_DIM ?= 1000000
ESTIMATORS_CANARIES ?= 2000
# fedavg.mk's defaults, spelled out: the .mk files are read in any order.
ESTIMATORS_FEDAVG_NOISES ?= 0 0.0472 0.0906 0.199
ESTIMATORS_FEDAVG_OUT ?= $(OUT)/fedavg
# Nasr et al. 2021's game on DP-SGD (sgd.mk's cells at eps 4: six threat models, made first if missing).
ESTIMATORS_SGD_CELLS ?= api_4 static-poison_4 intermediate-poison_4 adaptive-poison_4 gradient-canary_4 malicious-dataset_4
ESTIMATORS_SGD_OUT ?= $(OUT)/sgd
ESTIMATORS_OUT ?= $(OUT)/estimators
ESTIMATORS_DIR := $(dir $(lastword $(MAKEFILE_LIST)))estimators

ESTIMATORS_SUM_ROWS := $(foreach s,$(ESTIMATORS_SIGMAS),$(foreach r,$(ESTIMATORS_SEEDS),$(ESTIMATORS_OUT)/sum-sigma-$(s)-seed-$(r).json))
ESTIMATORS_FEDAVG_ROWS := $(foreach z,$(ESTIMATORS_FEDAVG_NOISES),$(ESTIMATORS_OUT)/fedavg-noise-$(z).json)
ESTIMATORS_SGD_ROWS := $(foreach c,$(ESTIMATORS_SGD_CELLS),$(ESTIMATORS_OUT)/sgd-$(c).json)

.PHONY: estimators
all: estimators
estimators: $(ESTIMATORS_OUT)/table.md
	@cat $<

define estimators_sum
$(ESTIMATORS_OUT)/sum-sigma-$(1)-seed-$(2).csv:
	@mkdir -p $$(@D)
	PYTHON=$(PYTHON) $(ESTIMATORS_DIR)/sum_scores.sh $(1) $(2) $(ESTIMATORS_DIM) $(ESTIMATORS_CANARIES) $$@
$(ESTIMATORS_OUT)/sum-sigma-$(1)-seed-$(2).json: $(ESTIMATORS_OUT)/sum-sigma-$(1)-seed-$(2).csv $(ESTIMATORS_DIR)/audit.sh
	PYTHON=$(PYTHON) $(ESTIMATORS_DIR)/audit.sh $$< 1e-6 \
	  "$$$$(eps-gauss2 --gaussian-mechanism --sigma $(1) --delta 1e-6)" "sum query, sigma $(1), seed $(2)" >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach s,$(ESTIMATORS_SIGMAS),$(foreach r,$(ESTIMATORS_SEEDS),$(eval $(call estimators_sum,$(s),$(r)))))

# fedavg's run.json carries the run's delta and its analytic eps_run.
$(ESTIMATORS_OUT)/fedavg-noise-%.json: $(ESTIMATORS_FEDAVG_OUT)/noise-%/run.json $(ESTIMATORS_DIR)/audit.sh
	@mkdir -p $(@D)
	PYTHON=$(PYTHON) $(ESTIMATORS_DIR)/audit.sh $(<D)/scores_final.csv \
	  $$($(PYTHON) -c 'import json, sys; j = json.load(open(sys.argv[1])); print(j["delta"], j["analytic_epsilon"]["eps_run"])' $<) \
	  "fedavg, noise $*" >$@.tmp
	mv $@.tmp $@

# sgd.mk's cell JSON carries the run's analytic eps (delta 1e-5).
$(ESTIMATORS_OUT)/sgd-%.json: $(ESTIMATORS_SGD_OUT)/cells/%.json $(ESTIMATORS_DIR)/audit.sh
	@mkdir -p $(@D)
	PYTHON=$(PYTHON) $(ESTIMATORS_DIR)/audit.sh $(<D)/$*.csv 1e-5 \
	  $$($(PYTHON) -c 'import json, sys; print(json.load(open(sys.argv[1]))["analytic_eps"])' $<) \
	  "DP-SGD, $(subst _, at eps ,$*)" >$@.tmp
	mv $@.tmp $@

$(ESTIMATORS_OUT)/table.md: $(ESTIMATORS_SUM_ROWS) $(ESTIMATORS_FEDAVG_ROWS) $(ESTIMATORS_SGD_ROWS) $(ESTIMATORS_DIR)/summarize.py
	$(PYTHON) $(ESTIMATORS_DIR)/summarize.py $(ESTIMATORS_SUM_ROWS) $(ESTIMATORS_FEDAVG_ROWS) $(ESTIMATORS_SGD_ROWS) >$@.tmp
	mv $@.tmp $@
