#!/usr/bin/env bash
# A domain error that only one rank's stamp meets (a law of the motion that turns NaN mid-run, a
# law a linearization cannot take) ends a two-rank run as it ends a one-rank run: the same exit
# code and message on every rank, summary.json "failed". Both hung before: the rank that met it
# cut the step while the other waited in the next collective call.
# usage: domain_error_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -uo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
model="$src/tests/mpi/law_chain.yaml"

expect_failure() {  # NAME CODE MESSAGE ARGS...: the run ends within 120 s with CODE and MESSAGE
  local name=$1 code=$2 message=$3
  shift 3
  timeout -s KILL 120 "$mpirun" -n 2 "$catena" run "$model" --out "$work/$name" --quiet "$@" > "$work/$name.log" 2>&1
  local got=$?
  [[ $got -ne 137 ]] || { cat "$work/$name.log"; echo "$name: hung (killed after 120 s)"; exit 1; }
  [[ $got -eq $code ]] || { cat "$work/$name.log"; echo "$name: exit code $got, expected $code"; exit 1; }
  grep -q -- "$message" "$work/$name.log" || { cat "$work/$name.log"; echo "$name: no '$message'"; exit 1; }
  echo "$name: exit $got with '$message'"
}

expect_failure nan-mid-run 3 "its value is not a number (NaN)" --set "loads.0.force.0=t > 0.5 ? sqrt(-1)*vx : -vx"
status=$(tr -d ' \n' < "$work/nan-mid-run/summary.json" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
[[ $status == failed ]] || { echo "summary.json status '$status', expected failed"; exit 1; }
expect_failure no-linearization 3 "has no linearization at rest" --set "loads.0.force.0=2*(1 - speed/3)" \
  --set analysis.type=eigen --set analysis.modes=2
