# Andrew et al. 2024, Table 2: one-shot auditing of the Gaussian mechanism (Alg. 1).
#   make -C experiments table2 [-j2]    -> $(OUT)/table2/table2.txt and fig1.png
# sigma 4.22, 1.54, 0.541 give eps 1, 3, 10 at delta 1e-6 (eps-gauss2 --gaussian-mechanism);
# d = 10^6, k = 10^3, 50 seeded runs each. Every run is an independent process pipeline
# (table2/run.sh), so -j runs them side by side. Run r uses --seed r for the canaries
# and for the noise (dp-train derives its own streams from it), for every sigma.
TABLE2_SIGMAS ?= 4.22 1.54 0.541
TABLE2_DIM ?= 1000000
TABLE2_CANARIES ?= 1000
TABLE2_RUNS ?= 50
TABLE2_THREADS ?= 1
TABLE2_OUT ?= $(OUT)/table2
TABLE2_DIR := $(dir $(lastword $(MAKEFILE_LIST)))table2

TABLE2_EPS := $(foreach s,$(TABLE2_SIGMAS),$(foreach r,$(shell seq 1 $(TABLE2_RUNS)),$(TABLE2_OUT)/sigma-$(s)/run-$(r).eps))
TABLE2_SCORES := $(foreach s,$(TABLE2_SIGMAS),$(TABLE2_OUT)/sigma-$(s)/scores-1.csv)

.PHONY: table2
all: table2
table2: $(TABLE2_OUT)/table2.txt $(TABLE2_OUT)/fig1.png
	@cat $(TABLE2_OUT)/table2.txt

define table2_run
$(TABLE2_OUT)/sigma-$(1)/run-$(2).eps:
	@mkdir -p $$(@D)
	PYTHON=$(PYTHON) $(TABLE2_DIR)/run.sh $(1) $(2) $(TABLE2_DIM) $(TABLE2_CANARIES) $(TABLE2_THREADS) $$@ \
	  $(if $(filter 1,$(2)),$$(@D)/scores-1.csv)
endef
$(foreach s,$(TABLE2_SIGMAS),$(foreach r,$(shell seq 1 $(TABLE2_RUNS)),$(eval $(call table2_run,$(s),$(r)))))

$(TABLE2_SCORES): $(TABLE2_OUT)/sigma-%/scores-1.csv: $(TABLE2_OUT)/sigma-%/run-1.eps

$(TABLE2_OUT)/table2.txt: $(TABLE2_EPS)
	$(PYTHON) $(TABLE2_DIR)/summarize.py $(TABLE2_OUT) $(TABLE2_DIM) $(TABLE2_CANARIES) $(TABLE2_SIGMAS) >$@.tmp
	mv $@.tmp $@

$(TABLE2_OUT)/fig1.png: $(TABLE2_SCORES) $(TABLE2_DIR)/fig1.gp
	gnuplot -e "dim=$(TABLE2_DIM); k=$(TABLE2_CANARIES); out='$@.tmp'" \
	  -e "files='$(TABLE2_SCORES)'; titles='$(foreach s,$(TABLE2_SIGMAS),sigma=$(s))'" $(TABLE2_DIR)/fig1.gp
	mv $@.tmp $@
