#!/usr/bin/env bash
# Two MPI ranks give the one-rank results (to 1e-10 relative) with rows distributed over both:
# a truss net, a four-bar linkage with joints (relative coordinates and multipliers), the
# first 0.05 s of the falling fifteen-bar chain (spherical joints, a static start), and the
# flexible arm whose hub law reads sensors of the hub joint's angle, the hub's rate and the tip in
# the hub's frame (a law's row coupled to nodes another rank may own).
# usage: two_ranks_match_one.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

for model in truss_net four_bar chain15 arm; do
file="$src/tests/mpi/$model.yaml" settings=()
[[ $model == chain15 ]] && file="$src/cases/chain15-falling/model.yaml" settings=(--set analysis.t_end=0.05)
[[ $model == arm ]] && file="$src/cases/flexible-arm-pd/model.yaml" settings=(--set analysis.t_end=0.2
  --set "joints.0.laws.rz.force=-Kp*(hub_angle - theta_ref) - Kd*hub_rate + 50*tip_deflection")
"$catena" run "$file" --out "$work/one" --quiet "${settings[@]}"
for package in default mumps; do
# The default on two ranks: each rank's interior without pivoting, the cut through its Schur
# complement (solvers/interface_schur_lu.hpp), except the four-bar, all of whose rows are on the
# cut; MUMPS when asked for (and where that fails).
if [[ $package == default ]]; then
  "$mpirun" -n 2 "$catena" run "$file" --out "$work/two" --quiet "${settings[@]}"
  expected=$([[ $model == four_bar ]] && echo mumps || echo 'petsc+schur')
else
  "$mpirun" -n 2 "$catena" run "$file" --out "$work/two" --quiet "${settings[@]}" -- -pc_factor_mat_solver_type mumps
  expected='mumps'
fi
solver=$(tr -d ' \n' < "$work/two/summary.json" | sed -n 's/.*"linear_solver":"\([^"]*\)".*/\1/p')
factorizations=$(tr -d ' \n' < "$work/two/summary.json" | sed -n 's/.*"numeric_factorizations":\([0-9]*\).*/\1/p')
echo "$model, $package: linear solver $solver, $factorizations numeric factorizations"
[[ $solver == "$expected" && $factorizations -gt 0 ]] || { echo "expected $expected with factorizations"; exit 1; }

# Every rank owns a non-empty share of the rows.
rows=$(tr -d ' \n' < "$work/two/summary.json" | sed -n 's/.*"rows_per_rank":\[\([0-9,]*\)\].*/\1/p')
echo "rows per rank: $rows"
IFS=, read -r -a counts <<< "$rows"
[[ ${#counts[@]} -eq 2 && ${counts[0]} -gt 0 && ${counts[1]} -gt 0 ]] || { echo "rows not distributed: '$rows'"; exit 1; }

compare() {  # numeric comparison of two CSV files, relative to the file's largest magnitude (round-off
             # columns such as balance or a zero momentum compare against the physical scale)
  awk -F, -v name="$1" -v tol="$2" '
    NR == FNR { if (FNR > 1) for (i = 1; i <= NF; i++) { a[FNR, i] = $i; s = ($i < 0 ? -$i : $i); if (i > 1 && s > M) M = s }; n = FNR; next }
    FNR > 1 { for (i = 1; i <= NF; i++) { d = a[FNR, i] - $i; d = d < 0 ? -d : d; sc = M > 1e-300 ? M : 1;
              if (d / sc > worst) { worst = d / sc; where = "row " FNR ", column " i } } ; rows = FNR }
    END { if (rows != n) { print name ": row counts differ (" n " vs " rows ")"; exit 1 }
          printf "%s: %d rows, worst relative difference %.3g (%s)\n", name, rows, worst, where; exit (worst > tol) }
  ' "$work/one/$1" "$work/two/$1"
}
compare energy.csv 1e-10
# Reactions (multipliers) are known to the conditioning of the constraint system: 1e-8.
compare sensors.csv "$([[ $model != truss_net ]] && echo 1e-8 || echo 1e-10)"
rm -rf "$work/two"
done
rm -rf "$work/one"
done
