# Whole privacy curves (issue 23): the analytic trade-off curves of one DP-SGD run (all iterates,
# last iterate) beside the empirical curve of its malicious-dataset audit, as CSVs a CI job can
# diff (the eps(delta) files share one delta grid) and one figure.
#   make -C experiments curves   -> $(OUT)/curves/{all,final,band}.csv, eps_*.csv, fig.png
CURVES_OUT ?= $(OUT)/curves
CURVES_DIR := $(dir $(lastword $(MAKEFILE_LIST)))curves
CURVES_RUN := --sigma 2.2477949531720802 --q 0.1 --steps 100
CURVES_TRIALS ?= 100000

.PHONY: curves
all: curves
curves: $(CURVES_OUT)/fig.png

$(CURVES_OUT)/all.csv:
	@mkdir -p $(CURVES_OUT)
	rdp-compose --accountant pld $(CURVES_RUN) --tradeoff $@ --eps-delta $(CURVES_OUT)/eps_all.csv

$(CURVES_OUT)/final.csv:
	@mkdir -p $(CURVES_OUT)
	rdp-compose --accountant pld $(CURVES_RUN) --release final --tradeoff $@ \
	  --eps-delta $(CURVES_OUT)/eps_final.csv

$(CURVES_OUT)/band.csv:
	@mkdir -p $(CURVES_OUT)
	dp-train sgd --threat malicious-dataset --engine simulate --clip 4 --eps 2 --trials $(CURVES_TRIALS) -q | \
	  eps-from-scores - --delta 1e-5 --roc-band $@ --eps-delta $(CURVES_OUT)/eps_measured.csv

$(CURVES_OUT)/fig.png: $(CURVES_OUT)/all.csv $(CURVES_OUT)/final.csv $(CURVES_OUT)/band.csv $(CURVES_DIR)/fig.gp
	gnuplot -e "dir='$(CURVES_OUT)'; out='$@.tmp'" $(CURVES_DIR)/fig.gp
	mv $@.tmp $@
	paste -d, $(CURVES_OUT)/eps_all.csv $(CURVES_OUT)/eps_final.csv $(CURVES_OUT)/eps_measured.csv | \
	  cut -d, -f1,2,4,6 | sed '1s/.*/delta,eps_all_iterates,eps_last_iterate,eps_lo_measured/' \
	  >$(CURVES_OUT)/eps_delta.csv
