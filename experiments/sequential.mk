# The sequential, anytime-valid gate measured (issue 24): validity under continuous monitoring
# beside a re-run fixed-N bound, time to detection of dp-train sgd's faults, tightness beside
# the fixed-N bounds on the same trials.
#   make -C experiments sequential [SEQ_RUNS=1000 SEQ_TRIALS=100000]  -> $(OUT)/sequential/table.md
SEQ_RUNS ?= 100
SEQ_TRIALS ?= 10000
SEQ_LOOK ?= 100
SEQ_DETECT_RUNS ?= 20
SEQ_TIGHT_RUNS ?= 5
SEQ_TIGHT_N ?= 1000 10000 100000
SEQ_OUT ?= $(OUT)/sequential
SEQ_DIR := $(dir $(lastword $(MAKEFILE_LIST)))sequential

.PHONY: sequential
all: sequential
sequential: $(SEQ_OUT)/validity.md $(SEQ_OUT)/detection.md $(SEQ_OUT)/tightness.md
	@cat $^

$(SEQ_OUT)/%.md: $(SEQ_DIR)/run.py
	@mkdir -p $(SEQ_OUT)
	BIN=$(BIN) RUNS=$(SEQ_RUNS) TRIALS=$(SEQ_TRIALS) LOOK=$(SEQ_LOOK) DETECT_RUNS=$(SEQ_DETECT_RUNS) \
	  TIGHT_RUNS=$(SEQ_TIGHT_RUNS) TIGHT_N="$(SEQ_TIGHT_N)" $(PYTHON) $< $* >$@.tmp
	mv $@.tmp $@
