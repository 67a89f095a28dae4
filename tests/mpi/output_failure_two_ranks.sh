#!/usr/bin/env bash
# A file rank 0 cannot write, on two ranks: an output failure (exit 4, summary.json "failed" naming
# the file), never a hang. Rank 0 alone writes the eigen-analysis's first frame and modes.csv: a
# failure there used to leave the other rank waiting in the eigensolver (or in MUMPS' release)
# for ever. A dynamic run's frame (.pvtu, written by rank 0) fails the same way.
# usage: output_failure_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

expect_output_failure() {  # NAME FILE-IN-THE-WAY MODEL [--set ...]
  local name=$1 in_the_way=$2 model=$3; shift 3
  local out="$work/$name"
  mkdir -p "$out/$in_the_way/inside"
  local code=0
  timeout 120 "$mpirun" -n 2 "$catena" run "$model" --out "$out" --quiet "$@" > "$work/$name.log" 2>&1 || code=$?
  [[ $code -ne 124 ]] || { echo "$name: hung (killed after 120 s)"; cat "$work/$name.log"; exit 1; }
  [[ $code -eq 4 ]] || { echo "$name: exit $code, expected 4"; cat "$work/$name.log"; exit 1; }
  grep -q "output failed: $out/$in_the_way" "$work/$name.log" || { echo "$name: message"; cat "$work/$name.log"; exit 1; }
  grep -q '"status": "failed"' "$out/summary.json" || { echo "$name: summary.json"; cat "$out/summary.json"; exit 1; }
  echo "$name: exit 4, '$in_the_way' named"
}

eigen="$src/tests/solvers/models/rotating_cantilever.yaml"
expect_output_failure eigen-first-frame results_00000.vtu "$eigen" --set Wbar=2
expect_output_failure eigen-modes modes.csv "$eigen" --set Wbar=2
expect_output_failure dynamic-frame results_00003.pvtu "$src/tests/mpi/four_bar.yaml" --set analysis.t_end=0.1
