#!/usr/bin/env bash
# tools/render and tools/view on a real run (four-bar, 0.5 s: six frames) with ParaView: a picture
# of the requested size that is not one colour; an MP4 and a GIF with the expected frame counts
# (ffprobe) and one camera for every frame (--verbose prints it per frame); the same with a scene
# series (the run's own scene.pvd, or a generated one after the contract in tools/catena_view.py)
# and without one (results.vtu only); tools/view --check builds the GUI's pipeline headless and
# saves a picture; an unknown field is refused with exit code 2 before anything is written; a
# picture's camera fits its frame unless --camera run; the default field is one with values (the
# section moment of beams; |velocity| for a chain of rigid bars, whose section arrays are NaN).
# Exit code 77 (ctest SKIP_RETURN_CODE) without pvbatch, Xvfb, ParaView's Python modules or ffmpeg.
# usage: render_paraview.sh SOURCE_DIR CATENA WORK_DIR
set -euo pipefail
src=$1 catena=$2 work=$3
missing=$(cd "$src/tools" && /usr/bin/python3 -c "import paraview_run; print(', '.join(paraview_run.missing_paraview()))")
for p in ffmpeg ffprobe; do command -v $p >/dev/null || missing="$missing${missing:+, }$p"; done
if [[ -n "$missing" ]]; then echo "skipped: missing $missing (tools/install-deps --paraview)"; exit 77; fi
rm -rf "$work" && mkdir -p "$work"
OMP_NUM_THREADS=1 "$catena" run "$src/cases/four-bar/model.yaml" --out "$work/run" --set analysis.t_end=0.5 -q
n_frames=$(grep -c "<DataSet" "$work/run/results.pvd")
[[ $n_frames -eq 6 ]] || { echo "expected 6 frames of four-bar in 0.5 s, found $n_frames"; exit 1; }
cp -r "$work/run" "$work/results-only" && rm -f "$work/results-only"/scene*
if [[ ! -f "$work/run/scene.pvd" ]]; then
  (cd "$src/tools" && /usr/bin/python3 -c "
import sys, paraview_run
code, output = paraview_run.run_pvbatch(sys.argv[1], {}, 64, 64, args=[sys.argv[2]])
print(output, end='')
sys.exit(code)" "$src/tests/tools/make_scene_fixture.py" "$work/run")
fi

# A PNG of the requested size with more than one colour (ffmpeg decodes it to raw RGB).
check_png() {  # FILE WIDTH HEIGHT
  local size
  size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$1")
  [[ "$size" == "$2,$3" ]] || { echo "$1: size $size, expected $2,$3"; exit 1; }
  ffmpeg -v error -i "$1" -f rawvideo -pix_fmt rgb24 - | /usr/bin/python3 -c "
import sys
data = sys.stdin.buffer.read()
colours = {data[i:i + 3] for i in range(0, len(data), 3 * 97)}
sys.exit(0 if len(colours) > 10 else 1)" || { echo "$1: (nearly) one colour"; exit 1; }
}
# Every frame's camera line of a --verbose output is the same, and there are $2 of them.
check_cameras() {  # VERBOSE_OUTPUT N
  local n distinct
  n=$(grep -c "^frame .* camera " "$1" || true)
  distinct=$(grep "^frame .* camera " "$1" | sed 's/^frame [0-9]* t=[^ ]* //; s/ ([0-9.]* s)$//' | sort -u | wc -l)
  [[ $n -eq $2 ]] || { echo "$1: $n frames rendered, expected $2"; cat "$1"; exit 1; }
  [[ $distinct -eq 1 ]] || { echo "$1: the camera changed between frames"; grep camera "$1"; exit 1; }
}
count_frames() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }

for run in run results-only; do
  "$src/tools/render" "$work/$run" --step 2 --size 320x200 --out "$work/$run.png" --verbose > "$work/$run-png.txt"
  check_png "$work/$run.png" 320 200
  expected="scene.pvd"; [[ $run == run ]] || expected="results.pvd only"
  grep -q "^pipeline: $expected;" "$work/$run-png.txt" || { echo "$run: not drawn from $expected"; cat "$work/$run-png.txt"; exit 1; }
  "$src/tools/render" "$work/$run" --movie "$work/$run.mp4" --size 320x200 --verbose > "$work/$run-mp4.txt"
  check_cameras "$work/$run-mp4.txt" 6
  [[ $(count_frames "$work/$run.mp4") -eq 6 ]] || { echo "$run.mp4: $(count_frames "$work/$run.mp4") frames, expected 6"; exit 1; }
done
# Thinned GIF: frames 0, 2, 4 and the last (5).
"$src/tools/render" "$work/run" --movie "$work/run.gif" --every 2 --size 200x120 --verbose > "$work/run-gif.txt"
check_cameras "$work/run-gif.txt" 4
[[ $(count_frames "$work/run.gif") -eq 4 ]] || { echo "run.gif: $(count_frames "$work/run.gif") frames, expected 4"; exit 1; }
# --camera run: the camera does not depend on the frames asked for, a picture of frame 0 uses the
# movie's; by default a single picture's camera fits its own frame (the crank has turned since
# t = 0, so the run's bounds are larger), and a movie refuses --camera frame.
"$src/tools/render" "$work/run" --step 0 --size 200x120 --camera run --out "$work/first.png" --verbose > "$work/first.txt"
[[ "$(grep -o 'camera .*(' "$work/first.txt")" == "$(grep -m1 -o 'camera .*(' "$work/run-gif.txt")" ]] ||
  { echo "the camera of one picture (--camera run) differs from the movie's"; exit 1; }
grep -q "camera fits run;" "$work/first.txt" || { echo "--camera run: $(cat "$work/first.txt")"; exit 1; }
"$src/tools/render" "$work/run" --step 0 --size 200x120 --out "$work/first-fit.png" --verbose > "$work/first-fit.txt"
grep -q "camera fits frame 0;" "$work/first-fit.txt" || { echo "default camera of a picture: $(cat "$work/first-fit.txt")"; exit 1; }
[[ "$(grep -o 'camera .*(' "$work/first-fit.txt")" != "$(grep -o 'camera .*(' "$work/first.txt")" ]] ||
  { echo "the camera fitted to frame 0 is the run's"; exit 1; }
set +e
"$src/tools/render" "$work/run" --movie "$work/bad.mp4" --camera frame 2> "$work/bad-camera.txt"
code=$?
set -e
[[ $code -eq 2 && ! -e "$work/bad.mp4" ]] || { echo "--movie --camera frame: exit code $code, expected 2"; exit 1; }
# The default field has values: the four-bar's beams their section moment over a range (no
# "... throughout" note), a chain of rigid bars without beams (its section arrays NaN on every
# point) |velocity|, which colours its links, not the NaN-only section moment.
grep -q "colour |section moment| \[N m\] range [-0-9.e+]* \.\. [-0-9.e+]*; camera" "$work/run-png.txt" ||
  { echo "four-bar's default field: $(cat "$work/run-png.txt")"; exit 1; }
OMP_NUM_THREADS=1 "$catena" run "$src/cases/chain15-falling/model.yaml" --out "$work/chain" --set analysis.t_end=0.1 -q
"$src/tools/render" "$work/chain" --size 200x120 --out "$work/chain.png" --verbose > "$work/chain.txt"
grep -q "^pipeline: scene.pvd; colour |velocity| \[m/s\] range [-0-9.e+]* \.\. [0-9.e+]*; camera" "$work/chain.txt" ||
  { echo "chain without beams, default field: $(cat "$work/chain.txt")"; exit 1; }
check_png "$work/chain.png" 200 120
# A field by name and component, and an unknown one (exit code 2, nothing written).
"$src/tools/render" "$work/run" --field velocity:z --size 200x120 --out "$work/vz.png" --verbose > "$work/vz.txt"
grep -q "colour velocity z \[m/s\]" "$work/vz.txt" || { echo "--field velocity:z: $(cat "$work/vz.txt")"; exit 1; }
set +e
"$src/tools/render" "$work/run" --field no_such --out "$work/bad.png" 2> "$work/bad.txt"
code=$?
set -e
[[ $code -eq 2 ]] || { echo "unknown field: exit code $code, expected 2"; exit 1; }
grep -q "no such array" "$work/bad.txt" || { echo "unknown field: message was $(cat "$work/bad.txt")"; exit 1; }
[[ ! -e "$work/bad.png" ]] || { echo "a PNG was written for an unknown field"; exit 1; }
# The GUI's script, headless.
"$src/tools/view" "$work/run" --check --out "$work/view.png" > "$work/view.txt"
grep -q "pipeline of .* (scene)" "$work/view.txt" || { echo "tools/view --check: $(cat "$work/view.txt")"; exit 1; }
check_png "$work/view.png" 1280 800
echo "tools/render and tools/view: pictures, movies (6 and 4 frames, one camera), scene and results-only pipelines, camera per picture, default fields with values, bad field refused"
