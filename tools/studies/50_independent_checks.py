#!/usr/bin/python3
"""Study: independent checks of the cases without a published curve.

- bipendulum-spherical against cases/bipendulum-spherical/reference.py (minimal coordinates, RK4),
  stored as cases/bipendulum-spherical/reference.csv;
- chain15-falling against cases/chain15-falling/reference.py (planar 15-link pendulum in minimal
  coordinates, RK4), computed by this study;
- chain15-driven against a Catena run at an 8 times smaller step.

  tools/studies/50_independent_checks.py [--catena PATH] [--full] [--out DIR]
"""
import bisect
import math
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/studies
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import studylib as sl  # noqa: E402

args = sl.parse_args(__doc__)
plt = sl.matplotlib_pyplot()

BP_SENSORS = ["cm1_x", "cm1_y", "cm1_z", "cm2_x", "cm2_y", "cm2_z"]
CH_SENSORS = ["bar3_z", "bar8_z", "bar13_z"]
BP_DTS = [1e-3, 2.5e-4] + ([6.25e-5] if args.full else [])
CH_DTS = [1e-3, 2.5e-4] + ([6.25e-5] if args.full else [])
DR_DTS = [1e-3, 5e-4] + ([2.5e-4] if args.full else [])
DR_FINE = 3.125e-5 if args.full else 1.25e-4
CHAIN_REF_H = 1e-5 if args.full else 2e-5


def every(dt, interval):
    return str(max(1, round(interval / dt)))


runs = {}
for dt in BP_DTS:
    runs[("bp", dt)] = sl.Run(args, "bipendulum-spherical", f"bipendulum-spherical-dt{dt:g}",
                              sets=[f"analysis.dt={dt:g}"], extra=["--output-every", every(dt, 0.01)])
for dt in CH_DTS:
    runs[("ch", dt)] = sl.Run(args, "chain15-falling", f"chain15-falling-dt{dt:g}",
                              sets=[f"analysis.dt={dt:g}"], extra=["--output-every", every(dt, 1e-3)])
for dt in DR_DTS + [DR_FINE]:
    runs[("dr", dt)] = sl.Run(args, "chain15-driven", f"chain15-driven-dt{dt:g}",
                              sets=[f"analysis.dt={dt:g}"], extra=["--output-every", every(dt, 1e-3)])

# the chain reference (a few seconds to a minute) runs alongside the Catena runs
chain_ref_csv = os.path.join(args.work, "chain15-falling-reference.csv")
chain_ref_cmd = ["cases/chain15-falling/reference.py", "--csv", chain_ref_csv, "--h", f"{CHAIN_REF_H:g}",
                 "--every", "2e-05" if args.full else "1e-04"]
ref_proc = subprocess.Popen([sys.executable] + chain_ref_cmd, stdout=subprocess.PIPE, text=True)
# the longest runs (smallest steps) first, so that two at a time end together
sl.run_all(args, sorted(runs.values(), key=lambda r: float(r.sets[0].split("=")[1])))
print("  " + ref_proc.communicate()[0].strip())
if ref_proc.returncode != 0:
    sys.exit("cases/chain15-falling/reference.py failed")
for r in runs.values():
    if r.status != "completed":
        sys.exit(f"{r.command()}: {r.status}")

bp_ref_path = "cases/bipendulum-spherical/reference.csv"
if args.full or not os.path.exists(bp_ref_path):
    # regenerate the reference into the work directory and check the stored one against it
    fresh = os.path.join(args.work, "bipendulum-spherical-reference.csv")
    subprocess.run([sys.executable, "cases/bipendulum-spherical/reference.py", "--csv", fresh, "--h", "1e-4"],
                   check=True)
    if not os.path.exists(bp_ref_path):
        bp_ref_path = fresh
    else:
        a, b = sl.read_csv(bp_ref_path), sl.read_csv(fresh)
        d = max(abs(x - y) for n in BP_SENSORS for x, y in zip(a[n], b[n]))
        print(f"  stored {bp_ref_path} vs regenerated: {d:.1e}")
bp_ref = sl.read_csv(bp_ref_path)
ch_ref = sl.read_csv(chain_ref_csv)


def interp(cols, name, t):
    ts = cols["t"]
    i = min(max(bisect.bisect_left(ts, t), 1), len(ts) - 1)
    t0, t1 = ts[i - 1], ts[i]
    w = (t - t0) / (t1 - t0)
    return (1 - w) * cols[name][i - 1] + w * cols[name][i]


def diffs(s, ref, names, shift=0.0, t_max=None):
    """Per row of s: the largest |s - ref| over names (ref interpolated at t - shift)."""
    out = []
    for i, t in enumerate(s["t"]):
        if t_max is not None and t > t_max + 1e-12:
            break
        if t - shift < ref["t"][0] - 1e-12 or t - shift > ref["t"][-1] + 1e-12:
            out.append((t, float("nan")))
            continue
        out.append((t, max(abs(s[n][i] - interp(ref, n, t - shift)) for n in names)))
    return out


def max_until(series, t_max):
    return max(d for t, d in series if t <= t_max + 1e-12 and not math.isnan(d))


table = [["case, compared with", "Catena Δt [s]", "quantity", "largest difference over the window"]]


def windows(series, wins, unit=""):
    return "; ".join(f"{sl.fmt(max_until(series, w))}{unit} (0 … {w:g} s)" for w in wins)


figs = []
summary = {}

# --- bipendulum-spherical ---
fig, axes = plt.subplots(1, 2, figsize=(13, 4.6))
s0 = runs[("bp", BP_DTS[0])].sensors()
for k, n in enumerate(BP_SENSORS):
    axes[0].plot(bp_ref["t"], bp_ref[n], color=f"C{k}", lw=2.5, alpha=0.35)
    axes[0].plot(s0["t"], s0[n], color=f"C{k}", lw=0.9, ls="--", label=n)
axes[0].plot([], [], color="gray", lw=2.5, alpha=0.35, label="reference (RK4, thick)")
axes[0].plot([], [], color="gray", lw=0.9, ls="--", label=f"Catena Δt = {BP_DTS[0]:g} s (dashed)")
axes[0].set_xlabel("time t [s]")
axes[0].set_ylabel("centre of mass coordinate [ft]")
axes[0].set_title("bipendulum-spherical: Catena vs independent reference")
axes[0].legend(loc="lower left", ncol=3, fontsize=7)
for dt in BP_DTS:
    s = runs[("bp", dt)].sensors()
    d = diffs(s, bp_ref, BP_SENSORS)
    axes[1].semilogy([t for t, _ in d], [max(x, 1e-16) for _, x in d], lw=1, label=f"Catena Δt = {dt:g} s")
    table.append(["bipendulum-spherical, cases/bipendulum-spherical/reference.py (RK4, h = 1e-4 s)"
                  if dt == BP_DTS[0] else "", f"{dt:g}", "cm1_x … cm2_z", windows(d, (1.0, 5.0), " ft")])
    summary[("bp", dt)] = (max_until(d, 1.0), max_until(d, 5.0))
axes[1].set_xlabel("time t [s]")
axes[1].set_ylabel("largest |Catena − reference| over the six sensors [ft]")
axes[1].set_title("bipendulum-spherical: difference (log)")
axes[1].legend()
fig.tight_layout()
png = "50_independent_bipendulum_spherical.png"
fig.savefig(os.path.join(args.out, png))
figs.append((png, "bipendulum-spherical against the independent reference"))

# --- chain15-falling ---
fig, axes = plt.subplots(2, 2, figsize=(13, 8.4))
s0 = runs[("ch", CH_DTS[0])].sensors()
for k, n in enumerate(CH_SENSORS):
    axes[0][0].plot(ch_ref["t"], ch_ref[n], color=f"C{k}", lw=2.5, alpha=0.35)
    axes[0][0].plot(s0["t"], s0[n], color=f"C{k}", lw=0.9, ls="--", label=n)
axes[0][0].plot([], [], color="gray", lw=2.5, alpha=0.35, label="reference (planar, RK4, thick)")
axes[0][0].plot([], [], color="gray", lw=0.9, ls="--", label=f"Catena Δt = {CH_DTS[0]:g} s (dashed)")
axes[0][0].set_ylabel("z of the bar centre [ft]")
axes[0][0].set_title("chain15-falling: bar heights")
axes[0][0].legend(fontsize=7, loc="lower left")
axes[0][1].semilogy(ch_ref["t"], [max(f, 1e-3) for f in ch_ref["joint8_force"]], color="k", lw=2.5, alpha=0.3,
                    label="reference (planar, RK4)")
for dt in CH_DTS:
    s = runs[("ch", dt)].sensors()
    axes[0][1].semilogy(s["t"], [max(f, 1e-3) for f in s["joint8_force"]], lw=0.8, ls="--",
                        label=f"Catena Δt = {dt:g} s")
axes[0][1].set_ylabel("joint8_force [lbf]")
axes[0][1].set_title("chain15-falling: force between bars 7 and 8 (log)")
axes[0][1].legend(fontsize=7)
for dt in CH_DTS:
    s = runs[("ch", dt)].sensors()
    dz = diffs(s, ch_ref, CH_SENSORS)
    # the sensor is the multiplier averaged over the last step: compare with the reference at mid-step
    df = []
    for i, t in enumerate(s["t"]):
        if t < dt / 2:
            continue
        ref_f = interp(ch_ref, "joint8_force", t - dt / 2)
        df.append((t, abs(s["joint8_force"][i] - ref_f) / max(ref_f, 1.0)))
    axes[1][0].semilogy([t for t, _ in dz], [max(x, 1e-16) for _, x in dz], lw=1, label=f"Catena Δt = {dt:g} s")
    axes[1][1].semilogy([t for t, _ in df], [max(x, 1e-16) for _, x in df], lw=0.8, label=f"Catena Δt = {dt:g} s")
    table.append([f"chain15-falling, cases/chain15-falling/reference.py (planar, RK4, h = {CHAIN_REF_H:g} s)"
                  if dt == CH_DTS[0] else "", f"{dt:g}", "bar3_z, bar8_z, bar13_z", windows(dz, (0.4, 1.0, 1.5), " ft")])
    table.append(["", f"{dt:g}", "joint8_force (reference at t − Δt/2), relative to max(F, 1 lbf)",
                  windows(df, (0.4, 1.0, 1.5))])
    summary[("ch", dt)] = (max_until(dz, 0.4), max_until(dz, 1.0), max_until(dz, 1.5), max_until(df, 0.4),
                           max_until(df, 1.5))
axes[1][0].set_ylabel("largest |Catena − reference| of bar3_z, bar8_z, bar13_z [ft]")
axes[1][0].set_title("chain15-falling: position difference (log)")
axes[1][1].set_ylabel("|Catena − reference| / max(reference, 1 lbf) [—]")
axes[1][1].set_title("chain15-falling: joint8_force difference (reference at t − Δt/2; log)")
for row in axes:
    for a in row:
        a.set_xlabel("time t [s]")
axes[1][0].legend(fontsize=7)
axes[1][1].legend(fontsize=7)
fig.tight_layout()
png = "50_independent_chain15_falling.png"
fig.savefig(os.path.join(args.out, png))
figs.append((png, "chain15-falling against the planar minimal-coordinate reference"))

# --- chain15-driven: against a run at a much smaller step ---
fine = runs[("dr", DR_FINE)].sensors()
fig, axes = plt.subplots(1, 2, figsize=(13, 4.6))
s0 = runs[("dr", DR_DTS[0])].sensors()
for k, n in enumerate(CH_SENSORS):
    axes[0].plot(fine["t"], fine[n], color=f"C{k}", lw=2.5, alpha=0.35)
    axes[0].plot(s0["t"], s0[n], color=f"C{k}", lw=0.9, ls="--", label=n)
axes[0].plot([], [], color="gray", lw=2.5, alpha=0.35, label=f"Catena Δt = {DR_FINE:g} s (thick)")
axes[0].plot([], [], color="gray", lw=0.9, ls="--", label=f"Catena Δt = {DR_DTS[0]:g} s (dashed)")
axes[0].set_xlabel("time t [s]")
axes[0].set_ylabel("z of the bar centre [ft]")
axes[0].set_title("chain15-driven: default step vs a much smaller one")
axes[0].legend(fontsize=7, loc="upper left")
for dt in DR_DTS:
    s = runs[("dr", dt)].sensors()
    dz = diffs(s, fine, CH_SENSORS)
    axes[1].semilogy([t for t, _ in dz], [max(x, 1e-16) for _, x in dz], lw=1, label=f"Catena Δt = {dt:g} s")
    table.append([f"chain15-driven, Catena at Δt = {DR_FINE:g} s" if dt == DR_DTS[0] else "", f"{dt:g}",
                  "bar3_z, bar8_z, bar13_z", windows(dz, (0.1, 0.3, 0.5), " ft")])
    summary[("dr", dt)] = (max_until(dz, 0.1), max_until(dz, 0.3), max_until(dz, 0.5))
axes[1].set_xlabel("time t [s]")
axes[1].set_ylabel(f"largest |z(Δt) − z({DR_FINE:g} s)| of the three bars [ft]")
axes[1].set_title("chain15-driven: difference (log)")
axes[1].legend()
fig.tight_layout()
png = "50_independent_chain15_driven.png"
fig.savefig(os.path.join(args.out, png))
figs.append((png, "chain15-driven: default step against a much smaller one"))

for row in table:
    print(row)
bp0, bp1 = summary[("bp", BP_DTS[0])], summary[("bp", BP_DTS[1])]
ch0, ch1 = summary[("ch", CH_DTS[0])], summary[("ch", CH_DTS[1])]
dr0, dr1 = summary[("dr", DR_DTS[0])], summary[("dr", DR_DTS[1])]
interp_text = (
    f"bipendulum-spherical: Catena's centres of mass follow the independent minimal-coordinate solution "
    f"(two spherical angles per bar, Lagrange's equations, RK4 at h = 1e-4 s, itself converged to 4e-11 ft) "
    f"within {sl.fmt(bp0[0])} ft up to 1 s and {sl.fmt(bp0[1])} ft over the 5 s at the case's Δt = "
    f"{BP_DTS[0]:g} s; at Δt = {BP_DTS[1]:g} s the differences are {sl.fmt(bp1[0])} and {sl.fmt(bp1[1])} ft, "
    f"{bp0[1] / bp1[1]:.0f} times smaller, as second order predicts for a step four times smaller: the "
    f"remaining difference is Catena's time-discretization error, and the two formulations agree. "
    f"This reference is stored as cases/bipendulum-spherical/reference.csv. chain15-falling: the chain "
    f"stays in its plane, so a planar 15-link pendulum in minimal coordinates (RK4, h = {CHAIN_REF_H:g} s) is an "
    f"independent model of it. Up to 0.4 s the bar heights agree to {sl.fmt(ch0[0])} ft (Δt = {CH_DTS[0]:g}) and "
    f"{sl.fmt(ch1[0])} ft (Δt = {CH_DTS[1]:g}), and joint8_force, compared at mid-step where the "
    f"step-averaged multiplier belongs, to {sl.fmt(ch0[3])} and {sl.fmt(ch1[3])} (relative): second order, "
    f"like the positions, once the half-step shift of the averaged multiplier is taken into account. Once the chain "
    f"snaps taut (from 0.45 s; force peaks of up to several thousand lbf within a few ms) the differences grow: "
    f"{sl.fmt(ch0[1])} ft up to 1 s and {sl.fmt(ch0[2])} ft up to 1.5 s at Δt = {CH_DTS[0]:g}, "
    f"{sl.fmt(ch1[1])} and {sl.fmt(ch1[2])} ft at Δt = {CH_DTS[1]:g}: they shrink with the step, so Catena "
    f"converges to the independent solution, but the snaps make the late motion sensitive and Δt = 1e-3 is "
    f"not accurate there. chain15-driven (no independent formulation: a closed loop with two driven hinges): "
    f"the case's Δt = {DR_DTS[0]:g} s stays within {sl.fmt(dr0[0])} ft of a run at Δt = {DR_FINE:g} s up to "
    f"0.1 s and {sl.fmt(dr0[1])} ft up to 0.3 s (Δt = {DR_DTS[1]:g} s: {sl.fmt(dr1[0])} and {sl.fmt(dr1[1])} ft), "
    f"and departs by {sl.fmt(dr0[2])} ft by 0.5 s ({sl.fmt(dr1[2])} ft at Δt = {DR_DTS[1]:g} s), after the "
    f"whipping that chain15-driven's README describes: up to 0.3 s the difference falls "
    f"{dr0[1] / dr1[1]:.1f}-fold from Δt = {DR_DTS[0]:g} to {DR_DTS[1]:g} s (second order), while after 0.35 s "
    f"neither step is converged in the trajectory.")
commands = [r.command() for r in runs.values()]
commands.append(" ".join(chain_ref_cmd[:2] + [os.path.relpath(chain_ref_csv, sl.REPO)] + chain_ref_cmd[3:]))
commands.append("cases/bipendulum-spherical/reference.py --csv cases/bipendulum-spherical/reference.csv --h 1e-4"
                "   # once; stored")
sl.write_fragment(args, "Independent checks: bipendulum-spherical, chain15-falling, chain15-driven", commands,
                  table, figs, interp_text)
