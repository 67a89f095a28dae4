#!/usr/bin/env bash
# Eigen and buckling analyses on two MPI ranks give the one-rank results: the rotating
# cantilever's modes (a quadratic problem: Coriolis terms), the hanging pendulum's (joints,
# multipliers, a rigid mode), the exported mass matrix, and the lateral buckling factors.
# usage: eigen_two_ranks_match_one.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

compare_column() {  # FILE COLUMN TOLERANCE: largest relative difference of a numeric column
  awk -F, -v col="$2" -v tol="$3" -v name="$1" '
    NR == FNR { if (FNR > 1) a[FNR] = $col; n = FNR; next }
    FNR > 1 { d = a[FNR] - $col; d = d < 0 ? -d : d; s = a[FNR] < 0 ? -a[FNR] : a[FNR]; r = d / (s > 1e-300 ? s : 1);
              if (r > worst) worst = r; rows = FNR }
    END { if (rows != n || rows < 2) { print name ": row counts differ or empty (" n " vs " rows ")"; exit 1 }
          printf "%s column %d: %d rows, worst relative difference %.3g\n", name, col, rows - 1, worst; exit (worst > tol) }
  ' "$work/one/$1" "$work/two/$1"
}

run_both() {  # MODEL [--set ...]
  local model=$1; shift
  rm -rf "$work/one" "$work/two"
  "$catena" run "$model" --out "$work/one" --quiet "$@"
  "$mpirun" -n 2 "$catena" run "$model" --out "$work/two" --quiet "$@"
  grep -q '"mpi_ranks": 2' "$work/two/summary.json" || { echo "not run on two ranks"; exit 1; }
}

run_both "$src/tests/solvers/models/rotating_cantilever.yaml" --set Wbar=2 --set analysis.export_matrices=true
compare_column modes.csv 3 1e-9   # natural frequencies
cmp <(cut -d, -f7 "$work/one/modes.csv") <(cut -d, -f7 "$work/two/modes.csv")   # kinds
# The mass matrix gathered on rank 0 is the one-rank matrix up to the numbering (METIS orders
# the rows per partition): the same order and the same sorted entries.
head -2 "$work/one/M.mtx" | tail -1 > "$work/h1" && head -2 "$work/two/M.mtx" | tail -1 > "$work/h2"
cmp "$work/h1" "$work/h2"
tail -n +3 "$work/one/M.mtx" | awk '{ print $3 }' | sort -g > "$work/m1"
tail -n +3 "$work/two/M.mtx" | awk '{ print $3 }' | sort -g > "$work/m2"
paste "$work/m1" "$work/m2" | awk '{ d = $1 - $2; d = d < 0 ? -d : d; s = $1 < 0 ? -$1 : $1; r = d / (s > 1e-300 ? s : 1);
     if (r > w) w = r; n++ } END { printf "M.mtx: %d entries, worst relative difference of the sorted entries %.3g\n", n, w; exit (n == 0 || w > 1e-12) }'

run_both "$src/tests/solvers/models/pendulum_modes.yaml"
compare_column modes.csv 3 1e-9
cmp <(cut -d, -f7 "$work/one/modes.csv") <(cut -d, -f7 "$work/two/modes.csv")

run_both "$src/cases/buckling-lateral/model.yaml"
for key in critical_load_factor_linear critical_load_factor_tracked; do
  a=$(sed -n "s/.*\"$key\": \([^,]*\),*/\1/p" "$work/one/summary.json")
  b=$(sed -n "s/.*\"$key\": \([^,]*\),*/\1/p" "$work/two/summary.json")
  awk -v a="$a" -v b="$b" -v k="$key" 'BEGIN { d = (a - b) / a; d = d < 0 ? -d : d;
       printf "%s: %s vs %s (%.3g)\n", k, a, b, d; exit (d > 1e-9) }'
done
