#!/usr/bin/env bash
# Direct sensitivities under MPI (catena run --sensitivity, solvers/direct_sensitivity.hpp): two
# ranks give the one-rank sensitivities.csv on the rigid slider-crank and on the flexible four-bar
# (rows over both ranks), and a two-rank run continued from its checkpoint on two ranks ends with
# the same rows. Each column is compared relative to its largest magnitude, to 1e-5: the partial
# derivatives are differences of residuals summed in another order on two ranks, so their rounding
# (~1e-6 of a column, docs/sensitivity.md) differs; columns of round-off alone (below 1e-9 of the
# largest of their parameter's energy or sensor columns) are skipped.
# usage: sensitivity_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

compare() {  # compare A.csv B.csv TOL [SKIP: a regular expression of columns left out]
  python3 - "$1" "$2" "$3" "${4:-^$}" <<'PY'
import csv, re, sys
a, b, tol = list(csv.reader(open(sys.argv[1]))), list(csv.reader(open(sys.argv[2]))), float(sys.argv[3])
skip = re.compile(sys.argv[4])
assert a[0] == b[0], "headers differ"
assert len(a) == len(b), f"{len(a)} and {len(b)} rows"
largest = max(abs(float(v)) for row in b[1:] for v in row[1:])
worst, where = 0.0, ""
for i, name in enumerate(a[0][1:], start=1):
    scale = max(abs(float(r[i])) for r in b[1:])
    if scale < 1e-9 * largest or skip.match(name):
        continue
    for ra, rb in zip(a[1:], b[1:]):
        d = abs(float(ra[i]) - float(rb[i])) / scale
        if d > worst:
            worst, where = d, f"{name} at t = {rb[0]}"
print(f"  worst relative difference {worst:.2e} ({where})")
sys.exit(0 if worst <= tol else 1)
PY
}

for model in slider-crank-rigid four-bar; do
  file="$src/cases/$model/model.yaml"
  settings=(--set analysis.t_end=0.2 --set analysis.newton_tolerance=1e-13 --set output.checkpoint_every=25)
  [[ $model == slider-crank-rigid ]] && params=T,l1,m2 || params=L2,alpha
  "$catena" run "$file" --out "$work/one" --quiet "${settings[@]}" --sensitivity "$params"
  "$mpirun" -n 2 "$catena" run "$file" --out "$work/two" --quiet "${settings[@]}" --sensitivity "$params"
  echo "$model, --sensitivity $params: two ranks against one"
  # The four-bar's stiff coupler: its section forces are EA times strains of 1e-8, whose derivatives
  # keep fewer digits (tests/io/sensitivity_test.cpp leaves them out too).
  compare "$work/two/sensitivities.csv" "$work/one/sensitivities.csv" 1e-5 '^(N|Vy|Vz|T|My|Mz)_mid:'
  # Continued on two ranks from its oldest checkpoint kept, into the same directory: the rows it
  # rewrites are the uninterrupted run's.
  cp "$work/two/sensitivities.csv" "$work/uninterrupted.csv"
  checkpoint=$(ls "$work/two"/checkpoint_*.ckpt | head -1)
  "$mpirun" -n 2 "$catena" run "$file" --out "$work/two" --quiet "${settings[@]}" --sensitivity "$params" \
    --restart "$checkpoint"
  echo "$model: continued on two ranks from $(basename "$checkpoint") against uninterrupted"
  compare "$work/two/sensitivities.csv" "$work/uninterrupted.csv" 1e-12
  rm -rf "$work/one" "$work/two"
done
echo "sensitivities on two ranks match one"
