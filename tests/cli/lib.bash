# Helpers sourced by the CLI tests (tests/cli/*.sh). BIN points at build/bin.
set -u
export PATH="$BIN:$PATH"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
CHECKS=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# expect_status CODE CMD...: runs CMD, checks its exit status, keeps stdout/stderr in $TMP/out, $TMP/err.
expect_status() {
  local want=$1; shift
  CHECKS=$((CHECKS + 1))
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* (stderr: $(head -c 300 "$TMP/err"))"
}

# expect_error CODE PATTERN CMD...: fails with CODE, exactly one stderr line matching PATTERN, empty stdout.
expect_error() {
  local want=$1 pattern=$2; shift 2
  expect_status "$want" "$@"
  [ -s "$TMP/out" ] && fail "stdout not empty on error: $*"
  [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "stderr is not one line: $* ($(cat "$TMP/err"))"
  grep -Eq -- "$pattern" "$TMP/err" || fail "stderr '$(cat "$TMP/err")' does not match '$pattern': $*"
}

# expect_near GOT WANT TOL [what]: |GOT - WANT| <= TOL (relative to WANT when TOL ends in 'r').
expect_near() {
  CHECKS=$((CHECKS + 1))
  local got=$1 want=$2 tol=$3 what=${4:-value}
  "$PYTHON" - "$got" "$want" "$tol" <<'PY' || fail "$what: got $got, wanted $want +- $tol"
import sys
g, w, t = sys.argv[1], float(sys.argv[2]), sys.argv[3]
g = float(g)
tol = float(t[:-1]) * abs(w) if t.endswith("r") else float(t)
sys.exit(0 if abs(g - w) <= tol else 1)
PY
}

expect_eq() {
  CHECKS=$((CHECKS + 1))
  [ "$1" = "$2" ] || fail "${3:-value}: got '$1', wanted '$2'"
}

finish() {
  echo "$((CHECKS - FAILS)) passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}

# expect_documented MANPAGE CMD...: `CMD --help` has an EXAMPLES section, every
# --option it lists appears in MANPAGE (as -- or roff's \-\-), and MANPAGE has the
# sections every page of ours has.
expect_documented() {
  local man=$1; shift
  CHECKS=$((CHECKS + 1))
  local help
  help=$("$@" --help) || { fail "$* --help failed"; return; }
  grep -q "^EXAMPLES" <<<"$help" || fail "$* --help has no EXAMPLES"
  for opt in $(sed '/^EXAMPLES/,$d' <<<"$help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
    grep -qE -- "$(sed 's/-/\\\\?-/g' <<<"$opt")([^a-z0-9-]|$)" "$man" || fail "$man lacks $opt of $*"
  done
  for section in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" EXAMPLES; do
    grep -q "^\.SH \"*$section" "$man" || fail "$man lacks section $section"
  done
}
