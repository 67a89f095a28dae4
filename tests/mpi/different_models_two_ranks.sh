#!/usr/bin/env bash
# Ranks of one MPI run given different models (io/model_agreement.hpp): a rank-dependent --set, a
# model file whose text differs between the ranks (run, and optimize) are refused on both ranks
# with exit 2 and one message naming the rank and what differs, nothing written (they ran to
# "completed" with a result of neither model); a model that only one rank cannot read (its memory
# limit) is refused on both, with that rank's reason, instead of leaving rank 0 waiting for ever.
# The same --set on both ranks runs.
# usage: different_models_two_ranks.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
set -uo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
model="$src/tests/mpi/truss_net.yaml"

# Each rank started through a wrapper that gives it arguments of its own (Open MPI names the rank).
wrapper() {  # wrapper NAME BODY: $work/NAME.sh running BODY with the rank as $rank
  printf '#!/usr/bin/env bash\nrank=$OMPI_COMM_WORLD_RANK\n%s\n' "$2" > "$work/$1.sh"
  chmod +x "$work/$1.sh"
}
# refused NAME EXPECTED COMMAND...: exit 2 within 120 s (not a hang), EXPECTED once in the log.
refused() {
  local name=$1 expected=$2
  shift 2
  timeout 120 "$mpirun" -n 2 "$@" > "$work/$name.log" 2>&1
  local code=$?
  cat "$work/$name.log"
  [[ $code -eq 2 ]] || { echo "$name: exit $code, expected 2 (124: a rank waited for ever)"; exit 1; }
  local count
  count=$(grep -c -F -- "$expected" "$work/$name.log")
  [[ $count -eq 1 ]] || { echo "$name: expected one line with '$expected', found $count"; exit 1; }
  [[ ! -e "$work/$name" ]] || { echo "$name: something was written to $work/$name"; exit 1; }
  echo "$name: refused with exit 2"
}

wrapper set_by_rank "exec '$catena' \"\$@\" --set m=\$((2 + rank))"
refused set "rank 1: other --set options than rank 0" \
  "$work/set_by_rank.sh" run "$model" --out "$work/set" --quiet --set analysis.t_end=0.1

sed 's/m: 2.0/m: 3.0/' "$model" > "$work/model_1.yaml"
cp "$model" "$work/model_0.yaml"
cmp -s "$work/model_0.yaml" "$work/model_1.yaml" && { echo "the two model files should differ"; exit 1; }
wrapper file_by_rank "exec '$catena' run '$work/model_'\$rank.yaml \"\$@\""
refused file "rank 1: a model file whose text differs from rank 0's" \
  "$work/file_by_rank.sh" --out "$work/file" --quiet --set analysis.t_end=0.1

refused optimize "rank 1: other --set options than rank 0" \
  "$work/set_by_rank.sh" optimize "$src/tests/io/optimize/pushed_mass.yaml" --parameters Fx,Fy --out "$work/optimize" \
  --quiet

wrapper limit_by_rank "[[ \$rank -eq 1 ]] && export CATENA_MEMORY_LIMIT=1K; exec '$catena' \"\$@\""
refused limit "rank 1: the model cannot be read on this rank, though rank 0 read it" \
  "$work/limit_by_rank.sh" run "$model" --out "$work/limit" --quiet --set analysis.t_end=0.1
grep -q "expected at most 1 KiB (CATENA_MEMORY_LIMIT)" "$work/limit.log" || { echo "limit: rank 1's reason missing"; exit 1; }

"$mpirun" -n 2 "$catena" run "$model" --out "$work/same" --quiet --set analysis.t_end=0.1 --set m=3 ||
  { echo "the same --set on both ranks was refused"; exit 1; }
grep -q '"status": "completed"' "$work/same/summary.json" || { echo "the run with the same --set did not complete"; exit 1; }
echo "the same --set on both ranks runs"
rm -rf "$work"
