#!/usr/bin/env bash
# A serial linear solver under MPI (analysis.linear_solver: klu on two ranks) is bad input: exit 2
# before anything is written, with the reason (issue 20: it exited 3 after writing files).
# usage: serial_solver_refused.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -uo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
"$mpirun" -n 2 "$catena" run "$src/cases/bathe-pendulum/model.yaml" --out "$work/out" --quiet \
  --set analysis.linear_solver=klu > "$work/log" 2>&1
code=$?
grep -q "linear solver 'klu' is serial; use mumps with MPI" "$work/log" || { cat "$work/log"; echo "no reason given"; exit 1; }
[[ $code -eq 2 ]] || { cat "$work/log"; echo "exit code $code, expected 2"; exit 1; }
[[ ! -e "$work/out" ]] || { echo "something was written to $work/out"; exit 1; }
echo "klu on two ranks refused with exit 2, nothing written"
