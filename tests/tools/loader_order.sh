#!/usr/bin/env bash
# tools/loader-order reorders catena-run's shared libraries without changing which library
# provides any symbol: every binding the dynamic loader makes (LD_DEBUG=bindings: referencing
# object, symbol, provider) in a short run of both catena-run and the same program linked the
# ordinary way has the same provider; and the order really is another (else the test would prove
# nothing).
# usage: loader_order.sh CATENA_RUN CATENA_RUN_ORDINARY SOURCE_DIR WORK_DIR
set -euo pipefail
ordered=$1 ordinary=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

bindings() {  # program tag: the sorted bindings of a one-step run, the program's own name masked
  LD_DEBUG=bindings LD_DEBUG_OUTPUT="$work/ld_$2" "$1" run "$src/cases/bathe-pendulum/model.yaml" \
    --out "$work/out_$2" --quiet --set analysis.t_end=0.01 > /dev/null 2>&1
  cat "$work"/ld_"$2".* | grep "binding file" |
    sed -E "s/.*binding file ([^ ]+) \[[0-9]+\] to ([^ ]+) \[[0-9]+\]: normal symbol .([^']+)'.*/\1 \3 \2/" |
    sed -E 's|[^ ]*catena-run[^ ]*|PROGRAM|g' | sort -u
}
bindings "$ordinary" ordinary > "$work/ordinary.txt"
bindings "$ordered" ordered > "$work/ordered.txt"
# Compared where both runs made the binding: a few late ones depend on timing (Open MPI's
# progress paths), and which references are made is not what the order could change. A reference
# may have more than one provider (the program's copy relocations): the sets must agree.
python3 - "$work/ordinary.txt" "$work/ordered.txt" <<'PY'
import collections, os, sys
# A library may be reached by two paths (Debian's alternatives link PETSc's and SLEPc's into the
# loader's cache): the file is what must agree.
def providers(path):
    p = collections.defaultdict(set)
    for line in open(path):
        ref, sym, prov = line.split()
        p[(os.path.realpath(ref), sym)].add(os.path.realpath(prov))
    return p
a, b = providers(sys.argv[1]), providers(sys.argv[2])
both = a.keys() & b.keys()
print(f"references made by both runs: {len(both)} of {len(a)}")
if len(both) < 1000:
    sys.exit("too few bindings recorded")
differ = sorted(k for k in both if a[k] != b[k])
for k in differ[:20]:
    print("provider differs:", *k, sorted(a[k]), "->", sorted(b[k]))
sys.exit(1 if differ else 0)
PY
ldd "$ordinary" | awk '/=>/{print $3}' > "$work/ordinary_libs.txt"
ldd "$ordered" | awk '/=>/{print $3}' > "$work/ordered_libs.txt"
if cmp -s "$work/ordinary_libs.txt" "$work/ordered_libs.txt"; then
  echo "the libraries load in the ordinary order (tools/loader-order found nothing to do?)"; exit 1
fi
echo "same bindings, another load order"
rm -rf "$work"
