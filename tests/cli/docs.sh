#!/usr/bin/env bash
# needs: dp-train
# Every tool: --help with EXAMPLES and --version; a man page that documents every
# option --help lists; an entry in the README; dpaudit(7) names every tool.
source "$SRC/tests/cli/lib.bash"

for dir in "$SRC"/tools/*/; do
  tool=$(basename "$dir")
  man="$SRC/man/$tool.1"
  if [ ! -f "$man" ]; then fail "no man page man/$tool.1"; continue; fi
  expect_status 0 "$tool" --version
  grep -q "^[0-9]\+\.[0-9]\+\.[0-9]\+$" "$TMP/out" || fail "$tool --version prints '$(cat "$TMP/out")'"
  expect_documented "$man" "$tool"
  CHECKS=$((CHECKS + 1))
  grep -q "\`$tool\`" "$SRC/README.md" || fail "README.md has no entry for $tool"
  CHECKS=$((CHECKS + 1))
  grep -q "$tool" "$SRC/man/dpaudit.7" || fail "dpaudit(7) does not mention $tool"
done
for sub in $(dp-train --help | sed -n '/^Subcommands:/,/^$/p' | grep -oE '^  [a-z][a-z0-9-]*'); do
  expect_documented "$SRC/man/dp-train.1" dp-train "$sub"
done
finish
