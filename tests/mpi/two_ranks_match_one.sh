#!/usr/bin/env bash
# Two MPI ranks give the one-rank results (to 1e-10 relative) with rows distributed over both:
# a truss net, and a four-bar linkage with joints (relative coordinates and multipliers).
# usage: two_ranks_match_one.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

for model in truss_net four_bar; do
"$catena" run "$src/tests/mpi/$model.yaml" --out "$work/one" --quiet
"$mpirun" -n 2 "$catena" run "$src/tests/mpi/$model.yaml" --out "$work/two" --quiet

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
compare sensors.csv "$([[ $model == four_bar ]] && echo 1e-8 || echo 1e-10)"
rm -rf "$work/one" "$work/two"
done
