#!/bin/bash
# eps-from-scores at 10^7 scores (issue 26: parse at 1 GB/s, every method under 0.5 CPU-s,
# CSV and NPY). Three tables, one run:
#  1. the readers alone (parse.cpp, compiled here against BUILD_DIR's libraries, and against
#     BASELINE's when it is set): CPU s and MB/s of read_scores_csv (the 214 MB CSV) and
#     read_scores_npy (the two 40 MB arrays), the floor of each (its bytes read(2) into one
#     buffer), and of sorting both classes into a ScoreSet;
#     beside numpy.loadtxt and np.load of the same files (Debian's python3-numpy; pandas is
#     not installed);
#  2. and 3. the whole command, every method, on the CSV and on the NPY pair: CPU s
#     (user + sys) and peak RSS, best of 3, beside BASELINE's when it is set.
# BASELINE: a Release build directory of the code before this work (bin/eps-from-scores and
# lib/libdpaudit_{core,random,io,accounting,stats}.a), e.g. main's at commit 9525cb4.
# usage: [BASELINE=DIR] bench/eps_from_scores/parse.sh BUILD_DIR [N]
# The inputs (make_scores.py N --npy: in ~ N(1,1), out ~ N(0,1), shuffled, seeded) are made
# once under BUILD_DIR/bench-data/ (about a minute at 10^7).
set -eu
build=$(cd "$1" && pwd)
n=${2:-10000000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=$build/bench-data
mkdir -p "$data"
csv=$data/scores-$n.csv in=$data/in-$n.npy out=$data/out-$n.npy
if ! [ -s "$csv" ] || ! [ -s "$in" ] || ! [ -s "$out" ]; then
  /usr/bin/python3 "$here/make_scores.py" "$n" "$csv" --npy "$in" "$out"
fi
source "$root/bench/compile_driver.sh"  # parse.cpp against each build's library layers
compile_driver "$here/parse.cpp" "$data/parse" "$build"
[ -z "${BASELINE:-}" ] || compile_driver "$here/parse.cpp" "$data/parse-baseline" "$BASELINE"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc); n = $n scores"
echo
"$data/parse" "$csv" "$in" "$out" 3
[ -z "${BASELINE:-}" ] || "$data/parse-baseline" "$csv" "$in" "$out" 3 | tail -n +3 | sed 's/^| \([^|]*\) |/| baseline: \1 |/'
/usr/bin/python3 - "$csv" "$in" "$out" <<'PY'
import os, sys, time
import numpy as np
csv, a, b = sys.argv[1:4]
def row(what, paths, f):
    t = time.process_time(); n = f(); s = time.process_time() - t
    mb = sum(os.path.getsize(p) for p in paths) / 1e6
    print(f"| {what} | {mb:.1f} | {s:.3f} | {mb / s:.0f} | {n} |")
row("numpy.loadtxt (peer)", [csv], lambda: len(np.loadtxt(csv, delimiter=",", skiprows=1)))
row("np.load pair (peer)", [a, b], lambda: len(np.load(a)) + len(np.load(b)))
PY

tool=$build/bin/eps-from-scores
# The least CPU seconds (user + sys) of 3 runs, and the peak RSS of the last, as "cpu mib".
best() {
  local cpu=999 kb=0
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S %M" -o "$data/time" "$@" >"$data/out" 2>/dev/null
    read -r user sys kb <"$data/time"
    cpu=$(/usr/bin/python3 -c "print(round(min($cpu, $user + $sys), 2))")
  done
  echo "$cpu $((kb / 1024))"
}
methods=(threshold clopper-pearson jeffreys gauss-fit one-run one-run-fdp gdp)
for form in CSV NPY; do
  echo
  echo "| $form, n = $n, --delta 1e-5 | CPU s | MiB | baseline CPU s | baseline MiB | ratio | output |"
  echo "|---|---|---|---|---|---|---|"
  for m in "${methods[@]}"; do
    if [ "$form" = CSV ]; then input=("$csv"); else input=(--in "$in" --out "$out"); fi
    args=("${input[@]}" -m "$m" --delta 1e-5 -q)
    read -r cpu mib < <(best "$tool" "${args[@]}")
    result=$(head -c 24 "$data/out" | head -1)
    if [ -n "${BASELINE:-}" ]; then
      read -r bcpu bmib < <(best "$BASELINE/bin/eps-from-scores" "${args[@]}")
      cmp -s "$data/out" <("$tool" "${args[@]}") || result="$result (DIFFERS from the baseline)"
      ratio=$(/usr/bin/python3 -c "print(f'{$bcpu / $cpu:.1f}x')")
    else
      bcpu=- bmib=- ratio=-
    fi
    echo "| $m | $cpu | $mib | $bcpu | $bmib | $ratio | $result |"
  done
done
