#!/usr/bin/env bash
# The adjoint gradient under MPI (catena run --gradient, solvers/adjoint_gradient.hpp): two ranks
# give the one-rank objective_gradient of summary.json on Hou's rigid slider-crank and on the
# flexible four-bar with an objective (beams and hinges over both ranks), to 1e-7 of the gradient's
# largest component: the partials are differences of residuals summed in another order. A
# two-rank run continued from its checkpoint on two ranks (the time elements before it replayed
# from t = 0) gives the uninterrupted run's gradient bit for bit.
# usage: adjoint_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

# The four-bar with an objective: the out-of-plane motion at C and the rocker's rotation.
awk '{print} $0 == "analysis:" {print "  objective:\n    integrand: \"1e6*uy_C^2 + rotation_D^2\"\n    final: \"uy_C\""}' \
  "$src/cases/four-bar/model.yaml" > "$work/four-bar.yaml"

compare() {  # compare ONE/summary.json TWO/summary.json TOL
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
a, b, tol = json.load(open(sys.argv[1]))["objective_gradient"], json.load(open(sys.argv[2]))["objective_gradient"], float(sys.argv[3])
assert a.keys() == b.keys(), f"parameters {list(a)} and {list(b)}"
largest = max(abs(v) for v in a.values())
worst = max(abs(a[p] - b[p]) / largest for p in a)
print(f"  {a}\n  worst relative difference {worst:.2e}")
sys.exit(0 if worst <= tol else 1)
PY
}

for model in slider-crank-design four-bar; do
  if [[ $model == four-bar ]]; then
    file="$work/four-bar.yaml" params=L2,alpha,Omega,EI1 settings=(--set analysis.t_end=0.06)
  else
    file="$src/cases/$model/model.yaml" params=a0,a1,a2,l1,beta settings=(--set analysis.t_end=0.3)
  fi
  settings+=(--set analysis.newton_tolerance=1e-13 --set output.checkpoint_every=5)
  "$catena" run "$file" --out "$work/one" --quiet "${settings[@]}" --gradient "$params"
  "$mpirun" -n 2 "$catena" run "$file" --out "$work/two" --quiet "${settings[@]}" --gradient "$params"
  echo "$model, --gradient $params: two ranks against one"
  compare "$work/one/summary.json" "$work/two/summary.json" 1e-7
  cp "$work/two/summary.json" "$work/uninterrupted.json"
  checkpoint=$(ls "$work/two"/checkpoint_*.ckpt | head -2 | tail -1)
  "$mpirun" -n 2 "$catena" run "$file" --out "$work/two" --quiet "${settings[@]}" --gradient "$params" \
    --restart "$checkpoint"
  echo "$model: continued on two ranks from $(basename "$checkpoint") against uninterrupted"
  compare "$work/uninterrupted.json" "$work/two/summary.json" 0
  rm -rf "$work/one" "$work/two"
done
echo "the adjoint gradient on two ranks matches one"
