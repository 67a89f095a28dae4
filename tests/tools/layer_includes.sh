#!/usr/bin/env bash
# The layers' include rules are enforced by the build (CMakeLists.txt, catena_expose): a file of a
# layer that includes a header of a layer it does not link must fail to compile. Each line below
# preprocesses one include with the include directories of one library and the libraries it links,
# and expects the header to be found (ok) or not found (refused).
# usage: layer_includes.sh CXX LAYERS_DIR EIGEN_INCLUDE_DIR
set -euo pipefail
cxx=$1 layers=$2 eigen=$3
failures=0
# Quoted includes are looked for next to the including file first; for standard input that is
# the working directory, which must hold no source folder.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"

check() {  # expectation header library...
  local expect=$1 header=$2
  shift 2
  local flags=(-I "$eigen")
  for lib in "$@"; do flags+=(-I "$layers/$lib"); done
  local out
  if out=$(echo "#include \"$header\"" | "$cxx" -std=c++20 -E -x c++ - "${flags[@]}" -o /dev/null 2>&1); then
    found=yes
  elif grep -q "$header: No such file or directory" <<<"$out"; then
    found=no
  else
    found=yes  # found, then failed on something else (a third-party header): still reachable
  fi
  if [[ ($expect == ok && $found == yes) || ($expect == refused && $found == no) ]]; then
    echo "as expected: $header from $1: $expect"
  else
    echo "WRONG: $header from $1: expected $expect"
    failures=$((failures + 1))
  fi
}

check ok fem/model.hpp catena_fem
check refused elements/beam.hpp catena_fem
check refused assembly/tableau.hpp catena_fem
check ok elements/beam.hpp catena_elements catena_fem
check refused assembly/petsc_sinks.hpp catena_elements catena_fem
check refused solvers/newton.hpp catena_elements catena_fem
check refused elements/joint.hpp catena_assembly catena_ordering catena_fem
check refused solvers/newton.hpp catena_assembly catena_ordering catena_fem
check ok assembly/ordering.hpp catena_ordering catena_fem
check refused assembly/tableau.hpp catena_ordering catena_fem
check refused io/model_reader.hpp catena_solvers catena_assembly catena_elements catena_ordering catena_fem
check refused solvers/time_integrator.hpp catena_input catena_elements catena_ordering catena_fem
exit $((failures > 0))
