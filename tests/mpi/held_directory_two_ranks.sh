#!/usr/bin/env bash
# The output directory under MPI (io/run_directory.hpp): rank 0 takes the lock and both ranks
# learn the outcome. A directory another process holds is refused by both ranks with exit 2 and
# one message naming the holder, nothing written; once the holder is gone the run goes ahead and
# leaves no lock file; a shorter re-run on two ranks removes the earlier run's later .pvtu frames
# and their pieces.
# usage: held_directory_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/out"
model="$src/tests/mpi/four_bar.yaml"

# A holder: a shell that keeps the lock (flock(1) on the lock file) and writes its pid into it.
( flock -n 9 || exit 1; echo "pid $BASHPID host $(hostname)" >&9; exec sleep 60 ) 9> "$work/out/.catena.lock" &
holder=$!
for _ in $(seq 100); do [[ -s "$work/out/.catena.lock" ]] && break; sleep 0.1; done
code=0
"$mpirun" -n 2 "$catena" run "$model" --out "$work/out" --quiet --set analysis.t_end=0.2 > "$work/refused.log" 2>&1 || code=$?
kill "$holder"; wait "$holder" 2>/dev/null || true
cat "$work/refused.log"
[[ $code -eq 2 ]] || { echo "held directory: exit $code, expected 2"; exit 1; }
count=$(grep -c "the output directory is in use by pid $holder " "$work/refused.log" || true)
[[ $count -eq 1 ]] || { echo "expected one message naming pid $holder, found $count"; exit 1; }
[[ ! -e "$work/out/energy.csv" && ! -e "$work/out/summary.json" ]] || { echo "the refused run wrote files"; exit 1; }

# The holder is gone (its lock file stays, stale): taken over.
"$mpirun" -n 2 "$catena" run "$model" --out "$work/out" --quiet --set analysis.t_end=0.2
[[ ! -e "$work/out/.catena.lock" ]] || { echo "lock file left behind"; exit 1; }
frames=$(ls "$work/out" | grep -c '^results_[0-9]*\.pvtu$')
# A shorter re-run: the later frames and their pieces of the first run are gone.
"$mpirun" -n 2 "$catena" run "$model" --out "$work/out" --quiet --set analysis.t_end=0.1
kept=$(ls "$work/out" | grep -c '^results_[0-9]*\.pvtu$')
listed=$(grep -c '<DataSet' "$work/out/results.pvd")
pieces=$(ls "$work/out" | grep -c '^results_[0-9]*_[0-9]*\.vtu$')
echo "frames: $frames after t_end 0.2, $kept after the re-run to 0.1 ($listed listed, $pieces pieces)"
[[ $kept -lt $frames && $kept -eq $listed && $pieces -le $((2 * kept)) ]] || { echo "earlier frames left"; exit 1; }
for f in "$work/out"/results_*_*.vtu; do
  n=$(basename "$f" | sed 's/^results_\([0-9]*\)_.*/\1/')
  [[ -e "$work/out/results_$n.pvtu" ]] || { echo "piece $f without its .pvtu"; exit 1; }
done
rm -rf "$work"
