#!/usr/bin/env bash
# SIGINT and SIGTERM under mpirun (README, "Exit codes"). Open MPI's mpirun forwards a SIGINT or
# SIGTERM it receives to the ranks as SIGTERM and then exits 1 itself; a SIGTERM sent to the ranks
# (as a batch system does at the end of a job's time) ends each rank with 143, which mpirun
# passes on. Either way both ranks stop after the same step, summary.json says "interrupted" by
# SIGTERM and names the checkpoint, and a two-rank restart from it completes.
# usage: stop_signals_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
model="$src/tests/mpi/four_bar.yaml"

for target in mpirun ranks; do
  out="$work/$target"
  "$mpirun" -n 2 "$catena" run "$model" --out "$out" --quiet --set analysis.t_end=1000 --checkpoint-every 20 \
    > "$work/$target.log" 2>&1 &
  launcher=$!
  for _ in $(seq 600); do compgen -G "$out/checkpoint_*.ckpt" > /dev/null && break; sleep 0.1; done
  compgen -G "$out/checkpoint_*.ckpt" > /dev/null || { echo "$target: no checkpoint after 60 s"; cat "$work/$target.log"; exit 1; }
  if [[ $target == mpirun ]]; then kill -INT "$launcher"; else pkill -TERM -P "$launcher"; fi
  code=0
  wait "$launcher" || code=$?
  expected=$([[ $target == mpirun ]] && echo 1 || echo 143)
  [[ $code -eq $expected ]] || { echo "$target signalled: mpirun exit $code, expected $expected"; cat "$work/$target.log"; exit 1; }
  summary="$out/summary.json"
  grep -q '"status": "interrupted"' "$summary" || { echo "$target: summary.json not interrupted"; cat "$summary"; exit 1; }
  grep -q '"message": "stopped by SIGTERM at t = ' "$summary" || { echo "$target: message"; cat "$summary"; exit 1; }
  checkpoint=$(sed -n 's/^ *"checkpoint": "\(.*\)",*$/\1/p' "$summary")
  [[ -f $checkpoint ]] || { echo "$target: summary.json names no checkpoint that exists ($checkpoint)"; exit 1; }
  t=$(sed -n 's/^ *"t_reached": \([^,]*\),*$/\1/p' "$summary")
  t_end=$(awk -v t="$t" 'BEGIN { printf "%.2f", t + 0.1 }')
  "$mpirun" -n 2 "$catena" run "$model" --out "$out" --quiet --set analysis.t_end="$t_end" --checkpoint-every 20 \
    --restart "$checkpoint"
  grep -q '"status": "completed"' "$summary" || { echo "$target: the restart did not complete"; cat "$summary"; exit 1; }
  echo "$target signalled: mpirun exit $code, stopped at t = $t s, restarted from $(basename "$checkpoint") to $t_end s"
done
