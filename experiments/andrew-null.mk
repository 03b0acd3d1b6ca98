# Andrew et al. 2024, Sec. 3.1: an Anderson-Darling test on 10^6 samples of the exact cosine null at
# d = 1,000 (Andrew et al.: normality not rejected at 0.15). The samples are dpaudit's own: the
# cosines of ANDREW_NULL_N sphere canaries (canary-gen) with one fixed random vector (score-dump),
# one set per seed (10 by default), so this also checks the null sampler against Thm 3.1's CDF.
#   make -C experiments -j2 andrew-null   -> $(OUT)/andrew-null/table.md
ANDREW_NULL_SEEDS ?= 1 2 3 4 5 6 7 8 9 10
ANDREW_NULL_N ?= 1000000
ANDREW_NULL_DIM ?= 1000
ANDREW_NULL_OUT ?= $(OUT)/andrew-null
ANDREW_NULL_DIR := $(dir $(lastword $(MAKEFILE_LIST)))andrew-null

.PHONY: andrew-null
all: andrew-null
andrew-null: $(ANDREW_NULL_OUT)/table.md
	@cat $<

$(ANDREW_NULL_OUT)/vector.npy:
	mkdir -p $(ANDREW_NULL_OUT)
	$(PYTHON) -c "import numpy as np, sys; np.save(sys.argv[1], np.random.default_rng(0).standard_normal($(ANDREW_NULL_DIM)))" $@.tmp.npy
	mv $@.tmp.npy $@

$(ANDREW_NULL_OUT)/cos_%.csv: $(ANDREW_NULL_OUT)/vector.npy
	canary-gen --kind sphere --count $(ANDREW_NULL_N) --dim $(ANDREW_NULL_DIM) --seed $* >$(ANDREW_NULL_OUT)/spec_$*.json
	score-dump --canaries $(ANDREW_NULL_OUT)/spec_$*.json --model $< --threads 1 --quiet -o $@.tmp
	mv $@.tmp $@

$(ANDREW_NULL_OUT)/table.md: $(foreach s,$(ANDREW_NULL_SEEDS),$(ANDREW_NULL_OUT)/cos_$(s).csv) $(ANDREW_NULL_DIR)/anderson.py
	$(PYTHON) $(ANDREW_NULL_DIR)/anderson.py $(filter %.csv,$^) >$@.tmp
	mv $@.tmp $@
