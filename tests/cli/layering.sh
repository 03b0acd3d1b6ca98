#!/bin/bash
# The build's layering check (cmake/check_layer.cmake, issue 21): a folder of lib/ that
# includes a layer it does not declare, LibTorch outside a torch layer, or CLI11 outside
# cli fails with one line (on stdout, as the build shows it) naming the file, the line and the
# include; what it declares passes.
source "$SRC/tests/cli/lib.bash"

check() {  # check LAYER ALLOWED TORCH FILE: runs the check as the build does
  cmake -DLAYER="$1" "-DALLOWED=$2" -DTORCH="$3" "-DFILES=$4" -DSTAMP="$TMP/stamp" \
    -P "$SRC/cmake/check_layer.cmake"
}
mkdir -p "$TMP/stats"
printf '#include "stats/roc.hpp"\n#include "accounting/rdp.hpp"\n#include <vector>\n' >"$TMP/stats/ok.cpp"
printf '#include <vector>\n\n#include "canary/canary_set.hpp"\n' >"$TMP/stats/bad.cpp"
printf '#include <torch/torch.h>\n' >"$TMP/stats/torch.cpp"
printf '#include <CLI/CLI.hpp>\n' >"$TMP/stats/cli.cpp"

expect_status 0 check stats "core;accounting" OFF "$TMP/stats/ok.cpp"
[ -e "$TMP/stamp" ] || fail "a passing check writes its stamp"
rm -f "$TMP/stamp"
expect_status 1 check stats "core;accounting" OFF "$TMP/stats/bad.cpp"
grep -qx ".*stats/bad.cpp:3: layer 'stats' includes \"canary/...\" but declares only: core;accounting" "$TMP/out" ||
  fail "an undeclared layer is named with its file and line: $(cat "$TMP/out")"
[ -e "$TMP/stamp" ] && fail "a failing check writes no stamp"
expect_status 1 check stats "core" OFF "$TMP/stats/torch.cpp"
grep -q "torch.cpp:1: layer 'stats' includes LibTorch" "$TMP/out" || fail "LibTorch outside a torch layer: $(cat "$TMP/out")"
expect_status 0 check train "core" ON "$TMP/stats/torch.cpp"
expect_status 1 check stats "core" OFF "$TMP/stats/cli.cpp"
grep -q "cli.cpp:1: layer 'stats' includes CLI11" "$TMP/out" || fail "CLI11 outside cli: $(cat "$TMP/out")"
expect_status 0 check cli "core" OFF "$TMP/stats/cli.cpp"

finish
