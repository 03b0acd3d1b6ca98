# The sequential, anytime-valid gate measured (issue 24): validity under continuous monitoring
# beside a re-run fixed-N bound, time to detection of dp-train sgd's faults, tightness beside
# the fixed-N bounds on the same trials.
#   make -C experiments sequential   -> $(OUT)/sequential/{validity,detection,tightness}.md
# The validity part runs in process (sequential/validity.cpp, compiled here against the
# library layers of $(BUILD)): 1,000 audits of 10^5 trials, looked at after every trial.
SEQ_RUNS ?= 1000
SEQ_TRIALS ?= 100000
SEQ_LOOK ?= 100
SEQ_FIXED_MAX ?= 10000
SEQ_DETECT_RUNS ?= 20
SEQ_TIGHT_RUNS ?= 5
SEQ_TIGHT_N ?= 1000 10000 100000 1000000
SEQ_OUT ?= $(OUT)/sequential
SEQ_DIR := $(dir $(lastword $(MAKEFILE_LIST)))sequential
BUILD ?= $(abspath $(BIN)/..)
SEQ_LAYERS := games stats accounting adversaries io random core data train mechanisms canary

$(SEQ_OUT)/validity: $(SEQ_DIR)/validity.cpp $(foreach l,$(SEQ_LAYERS),$(BUILD)/lib/libdpaudit_$(l).a)
	@mkdir -p $(SEQ_OUT)
	g++ -std=c++17 -O2 -DNDEBUG -I$(SEQ_DIR)/../../lib -I/usr/include/eigen3 $< \
	  -Wl,--start-group $(filter %.a,$^) -Wl,--end-group -lhwy_contrib -lhwy -lfmt -lz -pthread -o $@

$(SEQ_OUT)/validity.md: $(SEQ_OUT)/validity

.PHONY: sequential
all: sequential
sequential: $(SEQ_OUT)/validity.md $(SEQ_OUT)/detection.md $(SEQ_OUT)/tightness.md
	@cat $^

$(SEQ_OUT)/%.md: $(SEQ_DIR)/run.py
	@mkdir -p $(SEQ_OUT)
	BIN=$(BIN) DRIVER=$(SEQ_OUT)/validity RUNS=$(SEQ_RUNS) TRIALS=$(SEQ_TRIALS) LOOK=$(SEQ_LOOK) \
	  FIXED_MAX=$(SEQ_FIXED_MAX) DETECT_RUNS=$(SEQ_DETECT_RUNS) \
	  TIGHT_RUNS=$(SEQ_TIGHT_RUNS) TIGHT_N="$(SEQ_TIGHT_N)" $(PYTHON) $< $* >$@.tmp
	mv $@.tmp $@
