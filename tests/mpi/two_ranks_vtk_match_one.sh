#!/usr/bin/env bash
# ParaView output under MPI: with two ranks each rank writes its piece results_NNNNN_<rank>.vtu
# and rank 0 the results_NNNNN.pvtu and a results.pvd listing them. Read back with VTK's own XML
# readers (python3-vtk9: vtkXMLPUnstructuredGridReader for the .pvtu), the pieces together must be
# the one-rank .vtu: same times, as many cells, every node once as a vertex cell and once as an
# owned (non-ghost) point, the same coordinates and point arrays per node (matched by node_id) and
# the same cell data per element (matched by cell type and nodes); both ranks write cells.
# Then restart: a two-rank run continued from a checkpoint on two ranks ends as the uninterrupted
# one, and continued on one rank in its own directory replaces the later .pvtu frames (pieces
# removed) by .vtu frames. The scene (scene.pvd, written by rank 0 alone) of the two-rank run
# equals the one-rank run's, and a restart on two ranks rewrites it identically.
# usage: two_ranks_vtk_match_one.sh CATENA MPIRUN SOURCE_DIR WORK_DIR
# Exit code 77 (ctest SKIP_RETURN_CODE) when /usr/bin/python3 has no vtk module.
set -euo pipefail
catena=$1 mpirun=$2 src=$3 work=$4
if ! /usr/bin/python3 -c "import vtkmodules.vtkIOXML" 2>/dev/null; then
  echo "skipped: /usr/bin/python3 cannot import vtk (Debian's python3-vtk9, a libvtk9-dev dependency)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
# A beam with a section radius (section_radius, section forces) and the four-bar (rigid bodies,
# joint points with reactions), each split over both ranks.
cat > "$work/beam.yaml" <<'YAML'
name: mpi-vtk-beam
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [1, 0, 0], velocity: [0, 0.5, 0.2]}
supports: [{node: root, dofs: all}]
beams:
  - {name: arm, from: root, to: tip, elements: 6, section: {EA: 1e6, GAy: 1e6, GAz: 1e6, GJ: 50, EIy: 100,
     EIz: 100, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005, rhoIz: 0.005, radius: 0.03}}
gravity: [0, 0, -9.81]
analysis: {dt: 0.01, t_end: 0.1, output_every: 2}
YAML

compare="$src/tests/mpi/compare_vtk_series.py"
for model in "$work/beam.yaml" "$src/tests/mpi/four_bar.yaml"; do
  "$catena" run "$model" --out "$work/one" --quiet --set analysis.t_end=0.1
  "$mpirun" -n 2 "$catena" run "$model" --out "$work/two" --quiet --set analysis.t_end=0.1 --checkpoint-every 4
  /usr/bin/python3 "$compare" pieces "$work/one" "$work/two"
  # The scene: rank 0 writes it whole, the same files as on one rank.
  /usr/bin/python3 "$compare" scene "$work/one" "$work/two"

  # Restart on two ranks into the run's own directory: the same files as the uninterrupted run.
  cp -r "$work/two" "$work/again"
  "$mpirun" -n 2 "$catena" run "$model" --out "$work/again" --quiet --set analysis.t_end=0.1 \
    --checkpoint-every 4 --restart "$work/again/checkpoint_000004.ckpt"
  /usr/bin/python3 "$compare" same "$work/two" "$work/again"

  # Restart on one rank: frames after the checkpoint become .vtu, the later .pvtu and pieces go.
  cp -r "$work/two" "$work/serial"
  "$catena" run "$model" --out "$work/serial" --quiet --set analysis.t_end=0.1 \
    --checkpoint-every 4 --restart "$work/serial/checkpoint_000004.ckpt"
  /usr/bin/python3 "$compare" mixed "$work/two" "$work/serial"
  rm -rf "$work/one" "$work/two" "$work/again" "$work/serial"
done
