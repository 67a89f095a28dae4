#!/usr/bin/env bash
# tools/plot on runs of catena (tests/tools/plot_reactions_bar.yaml, a bar released from a hinge,
# and cases/bathe-pendulum, which has no joint): what it plots, as --describe reports it, and the
# PNGs it writes.
# - sensors.csv: one panel per column, units in the labels, the zero column and the columns within
#   1e-9 of their unit's scale left out and named;
# - energy.csv --overlay: one panel, labelled in J (its columns' one unit);
# - --reactions: the hinge's force components in one panel (its moments are Newton's round-off
#   beside its forces: left out), step averages shifted by dt/2, which puts them on the
#   instantaneous reactions of a second run (to 1e-2 N, where the unshifted ones are 0.1 N off);
# - --reactions with a model without reaction sensors (exit 2, the sensor to add, naming the joint),
#   without joints, or without --model: exit 2.
# Exit code 77 (ctest SKIP_RETURN_CODE) without matplotlib or PyYAML.
# usage: plot_run.sh SOURCE_DIR CATENA WORK_DIR
set -euo pipefail
src=$1 catena=$2 work=$3
if ! /usr/bin/python3 -c "import matplotlib, yaml" 2>/dev/null; then
  echo "skipped: /usr/bin/python3 has no matplotlib or yaml (python3-matplotlib, python3-yaml: tools/install-deps)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
export OMP_NUM_THREADS=1
bar=$src/tests/tools/plot_reactions_bar.yaml
"$catena" run "$bar" --out "$work/bar" --quiet --set analysis.t_end=0.5
"$catena" run "$bar" --out "$work/bar-inst" --quiet --set analysis.t_end=0.5 --set output.reactions=instantaneous
"$catena" run "$src/cases/bathe-pendulum/model.yaml" --out "$work/pendulum" --quiet --set analysis.t_end=0.5

plot() { "$src/tools/plot" "$@" --describe; }
plot "$work/bar" > "$work/sensors.json"
plot "$work/bar/energy.csv" --overlay --columns kinetic,potential,balance > "$work/energy.json"
plot "$work/bar" --reactions > "$work/reactions.json"
plot "$work/bar" --reactions --model "$bar" > "$work/reactions-model.json"
plot "$work/bar-inst" --reactions > "$work/reactions-inst.json"
plot "$work/bar-inst" --reactions --model "$bar" --set output.reactions=instantaneous > "$work/reactions-inst-model.json"

/usr/bin/python3 - "$work" <<'PY'
import bisect, csv, json, sys
work = sys.argv[1]
failures = []
def check(condition, what):
    if not condition:
        failures.append(what)
def described(name):
    d = json.load(open(f"{work}/{name}.json"))
    png = open(d["out"], "rb").read(8)
    check(png == b"\x89PNG\r\n\x1a\n", f"{name}: {d['out']} is not a PNG")
    return d

s = described("sensors")
check([p["columns"] for p in s["panels"]] == [["pin_fx"], ["pin_fy"], ["pin_force"], ["pin_mx"], ["angle_pin"], ["tip_z"]],
      f"sensors.csv panels: {[p['columns'] for p in s['panels']]}")
check([p["ylabel"] for p in s["panels"]] == ["pin_fx [N]", "pin_fy [N]", "pin_force [N]", "pin_mx [$10^{-9}$ N m]",
                                             "angle_pin [rad]", "tip_z [m]"],
      f"sensors.csv labels: {[p['ylabel'] for p in s['panels']]}")
check(s["zero"] == ["pin_mz"], f"sensors.csv zero columns: {s['zero']}")
# Fz (along the hinge) is Newton's residue beside 10 N forces; Mx (N m) is alone in its unit
# without --reactions, so it is drawn in its power of ten, never with an offset.
check(list(s["negligible"]) == ["pin_fz"], f"sensors.csv negligible columns: {s['negligible']}")
check(all(p["offset"] is None for p in s["panels"]), "sensors.csv: an offset axis")

e = described("energy")
check(len(e["panels"]) == 1 and e["panels"][0]["columns"] == ["kinetic", "potential", "balance"]
      and e["panels"][0]["ylabel"] == "value [J]", f"energy.csv --overlay: {e['panels']}")

r = described("reactions")
check([p["columns"] for p in r["panels"]] == [["pin_fx", "pin_fy", "pin_force"]], f"reactions panels: {r['panels']}")
check(r["panels"][0]["ylabel"] == "reaction force [N]", f"reactions label: {r['panels'][0]['ylabel']}")
check(r["zero"] == ["pin_mz"] and sorted(r["negligible"]) == ["pin_fz", "pin_mx"],
      f"reactions left out: {r['zero']}, {r['negligible']}")
check(r["reactions"]["time_shift"] == 0.0025 and "step averages" in r["reactions"]["timing"],
      f"reactions timing: {r['reactions']}")
i = described("reactions-inst")
check(i["reactions"]["time_shift"] is None and "instantaneous" in i["reactions"]["timing"],
      f"instantaneous timing: {i['reactions']}")
# summary.json (sensor_sources, dt, reactions) tells what the model does.
for name, d in (("reactions-model", r), ("reactions-inst-model", i)):
    m = described(name)
    check(m["panels"] == d["panels"] and m["reactions"] == d["reactions"], f"{name}: differs from the summary's")

# The shift is right: the step averages at t - dt/2 lie on the instantaneous reactions.
def read(path):
    rows = list(csv.reader(open(path)))
    return {n: [float(row[k]) for row in rows[1:]] for k, n in enumerate(rows[0])}
avg, inst = read(f"{work}/bar/sensors.csv"), read(f"{work}/bar-inst/sensors.csv")
def at(t):
    k = min(max(bisect.bisect_left(inst["t"], t), 1), len(inst["t"]) - 1)
    w = (t - inst["t"][k - 1]) / (inst["t"][k] - inst["t"][k - 1])
    return (1 - w) * inst["pin_force"][k - 1] + w * inst["pin_force"][k]
def gap(shift):
    return max(abs(at(t - shift) - v) for t, v in zip(avg["t"][1:], avg["pin_force"][1:]))
shifted, unshifted = gap(r["reactions"]["time_shift"]), gap(0.0)
print(f"step averages against instantaneous reactions: {shifted:.2e} N at t - dt/2, {unshifted:.2e} N at t")
check(shifted < 1e-2 < 1e-1 < unshifted, f"shift: {shifted} N at t - dt/2, {unshifted} N at t")
if failures:
    print("\n".join(failures))
    sys.exit(1)
PY

# The bar's model without its reaction sensors (a model with a joint), and a model without joints.
grep -v "quantity: reaction_" "$bar" > "$work/bar-without-reactions.yaml"
set +e
"$src/tools/plot" "$work/bar" --reactions --model "$work/bar-without-reactions.yaml" --out "$work/none.png" 2> "$work/none.txt"
code=$?
"$src/tools/plot" "$work/pendulum" --reactions --model "$src/cases/bathe-pendulum/model.yaml" 2> "$work/nojoint.txt"
code_nojoint=$?
"$src/tools/plot" "$work/pendulum" --reactions 2> "$work/nomodel.txt"
code_nomodel=$?
set -e
[[ $code -eq 2 ]] || { echo "no reaction sensors: exit code $code, expected 2"; cat "$work/none.txt"; exit 1; }
grep -q "no joint reaction sensors in model 'reaction-bar'" "$work/none.txt" &&
  grep -qF "{name: pin_fx, element: pin, quantity: reaction_force_x}" "$work/none.txt" ||
  { echo "no reaction sensors: message was: $(cat "$work/none.txt")"; exit 1; }
[[ ! -e "$work/none.png" ]] || { echo "a PNG was written without reaction sensors"; exit 1; }
[[ $code_nojoint -eq 2 ]] && grep -q "the model has no joints" "$work/nojoint.txt" ||
  { echo "no joints: exit code $code_nojoint, message: $(cat "$work/nojoint.txt")"; exit 1; }
[[ $code_nomodel -eq 2 ]] && grep -q "no joint reaction sensors in the run" "$work/nomodel.txt" ||
  { echo "--reactions without reaction sensors: exit code $code_nomodel, message: $(cat "$work/nomodel.txt")"; exit 1; }
echo "tools/plot: sensors, energy --overlay and reactions plotted as described; no reaction sensors refused"
