#!/usr/bin/python3
"""Study: Crisfield & Shi's story — the energy-conserving midpoint scheme against Newmark's
trapezoidal rule (β = 1/4, γ = 1/2) at large steps, on bathe-pendulum and free-flying-chain.

  tools/studies/30_crisfield_shi.py [--catena PATH] [--full] [--out DIR]
"""
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/studies
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import studylib as sl  # noqa: E402

args = sl.parse_args(__doc__)
plt = sl.matplotlib_pyplot()

MGL = 10 * 9.80 * 3.0443          # bathe-pendulum energy scale m g l [J]
K0 = 0.5 * 2.2e7 * 1.0 ** 2       # free-flying-chain initial kinetic energy [J]
BATHE_DT = [0.1, 0.5]
CHAIN_DT = [0.1, 2.0]
extra_bathe = ["periods=30"] if args.full else []
extra_chain = ["analysis.t_end=60"] if args.full else []
INTEGRATORS = ["midpoint", "newmark"]

runs = {}
for dt in BATHE_DT:
    for integ in INTEGRATORS:
        runs[("bathe", integ, dt)] = sl.Run(args, "bathe-pendulum", f"bathe-{integ}-dt{dt:g}",
                                            sets=[f"analysis.dt={dt:g}", f"analysis.integrator={integ}"] + extra_bathe)
for dt in CHAIN_DT:
    for integ in INTEGRATORS:
        runs[("chain", integ, dt)] = sl.Run(args, "free-flying-chain", f"chain-{integ}-dt{dt:g}",
                                            sets=[f"analysis.dt={dt:g}", f"analysis.integrator={integ}"] + extra_chain)
sl.run_all(args, list(runs.values()))

STYLE = {("midpoint", 0): ("C0", "-"), ("midpoint", 1): ("C0", "--"),
         ("newmark", 0): ("C3", "-"), ("newmark", 1): ("C3", "--")}
FLOOR = 1e-17


def delta_balance(e):
    b0 = e["balance"][0]
    return [b - b0 for b in e["balance"]]


stats = {}
for key, r in runs.items():
    e = r.energy()
    db = delta_balance(e)
    stats[key] = {"max_db": max(abs(x) for x in db), "max_strain": max(e["strain"]),
                  "status": r.status, "t_end": e["t"][-1], "e": e, "db": db}

# --- Bathe pendulum: balance, |Δbalance| (log) and strain energy (log) ---
fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
for (case, integ, dt), st in stats.items():
    if case != "bathe":
        continue
    color, ls = STYLE[(integ, BATHE_DT.index(dt))]
    lab = f"{integ}, Δt = {dt:g} s"
    t = st["e"]["t"]
    axes[0].plot(t, [b / MGL for b in st["e"]["balance"]], color=color, ls=ls, label=lab)
    axes[1].semilogy(t, [max(abs(x) / MGL, FLOOR) for x in st["db"]], color=color, ls=ls, label=lab)
    axes[2].semilogy(t, [max(s / MGL, FLOOR) for s in st["e"]["strain"]], color=color, ls=ls, label=lab)
sl.finish_time_panels(fig, axes, [
    ("balance (kinetic + strain + potential) / m g l [—]", "Bathe pendulum: total energy"),
    ("|balance(t) − balance(0)| / m g l [—]", "Bathe pendulum: energy error (log)"),
    ("strain energy of the bar / m g l [—]", "Bathe pendulum: axial strain energy (log)"),
], f"bathe-pendulum, m g l = {MGL:.1f} J (values below 1e-17 drawn at 1e-17)")
png_bathe = "30_crisfield_shi_bathe.png"
fig.savefig(os.path.join(args.out, png_bathe))

# --- Bathe pendulum: swing angle (Newmark's locking: the bar sticks near the horizontal) ---
fig, ax = plt.subplots(figsize=(8, 3.8))
for (case, integ, dt), st in stats.items():
    if case != "bathe":
        continue
    s_ = runs[(case, integ, dt)].sensors()
    color, ls = STYLE[(integ, BATHE_DT.index(dt))]
    ax.plot(s_["t"], [math.degrees(math.atan2(x, -y)) for x, y in zip(s_["tip_x"], s_["tip_y"])],
            color=color, ls=ls, lw=1, label=f"{integ}, Δt = {dt:g} s")
ax.set_xlabel("time t [s]")
ax.set_ylabel("swing angle atan2(tip_x, −tip_y) [deg]")
ax.set_title("Bathe pendulum: swing angle from the downward vertical")
ax.legend(loc="lower left", ncol=2)
fig.tight_layout()
png_path = "30_crisfield_shi_bathe_angle.png"
fig.savefig(os.path.join(args.out, png_path))

# --- free-flying chain: balance and |Δbalance| (log), left tip against the discrete exact motion ---
fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
for (case, integ, dt), st in stats.items():
    if case != "chain":
        continue
    color, ls = STYLE[(integ, CHAIN_DT.index(dt))]
    lab = f"{integ}, Δt = {dt:g} s"
    t = st["e"]["t"]
    axes[0].semilogy(t, [max(b / K0, FLOOR) for b in st["e"]["balance"]], color=color, ls=ls, label=lab)
    axes[1].semilogy(t, [max(abs(x) / K0, FLOOR) for x in st["db"]], color=color, ls=ls, label=lab)
    s = runs[(case, integ, dt)].sensors()
    axes[2].plot(s["t"], s["left_tip_ux"], color=color, ls=ls, marker="." if dt > 1 else None, label=lab)
tt = [i * 0.05 for i in range(int(stats[("chain", "midpoint", 0.1)]["t_end"] / 0.05) + 1)]
axes[2].plot(tt, [200 * (1 - math.cos(t)) for t in tt], color="k", lw=0.8, ls=":", label="exact, 200 (1 − cos t)")
sl.finish_time_panels(fig, axes, [
    ("balance (kinetic + strain) / K0 [—]", "Free-flying chain: total energy (log)"),
    ("|balance(t) − balance(0)| / K0 [—]", "Free-flying chain: energy error (log)"),
    ("left_tip_ux [m]", "Free-flying chain: x displacement of the left tip"),
], f"free-flying-chain, K0 = {K0:.3g} J (values below 1e-17 drawn at 1e-17)", loc="best")
png_chain = "30_crisfield_shi_chain.png"
fig.savefig(os.path.join(args.out, png_chain))

table = [["case", "integrator", "Δt [s]", "run", "max \\|Δbalance\\|", "in scale", "max strain energy"]]
for (case, integ, dt), st in stats.items():
    scale, sname = (MGL, "m g l") if case == "bathe" else (K0, "K0")
    table.append([runs[(case, integ, dt)].case, integ, f"{dt:g}", f"{st['status']} to t = {st['t_end']:.4g} s",
                  f"{sl.fmt(st['max_db'])} J", f"{sl.fmt(st['max_db'] / scale)} {sname}",
                  f"{sl.fmt(st['max_strain'])} J"])
    print(table[-1])


def s(case, integ, dt, k="max_db"):
    return stats[(case, integ, dt)][k]


interp = (
    f"With the energy-conserving midpoint scheme the energy of both models stays constant to round-off "
    f"at every step size: at most {sl.fmt(max(s('bathe', 'midpoint', d) for d in BATHE_DT) / MGL)} m g l on the "
    f"Bathe pendulum (Δt = 0.1 and 0.5 s, the latter about 8 steps per swing) and "
    f"{sl.fmt(max(s('chain', 'midpoint', d) for d in CHAIN_DT) / K0)} K0 on the free-flying chain, "
    f"even at Δt = 2 s, where each step turns the chain by 2 atan(1) = 90°. Newmark's trapezoidal rule, "
    f"formally also energy-conserving for linear problems, gains energy on these geometrically non-linear, "
    f"stiff models: on the pendulum at Δt = 0.1 s the balance grows by {sl.fmt(s('bathe', 'newmark', 0.1) / MGL)} "
    f"m g l and the nearly rigid bar (EA = 1e10 N) holds up to {sl.fmt(s('bathe', 'newmark', 0.1, 'max_strain'))} J "
    f"of strain energy against {sl.fmt(s('bathe', 'midpoint', 0.1, 'max_strain'))} J with the midpoint scheme: "
    f"the energy is pumped into the axial vibration, and the pendulum locks: after its first swing it sticks near the "
    f"horizontal and creeps upwards instead of swinging back (swing-angle plot; at Δt = 0.5 s Newmark's energy "
    f"jumps erratically, by up to {sl.fmt(s('bathe', 'newmark', 0.5) / MGL)} m g l). On the "
    f"free-flying chain Newmark's energy error reaches {sl.fmt(s('chain', 'newmark', 0.1) / K0)} K0 at Δt = 0.1 s "
    f"and {sl.fmt(s('chain', 'newmark', 2.0) / K0)} K0 at Δt = 2 s, while the midpoint chain stays straight and "
    f"follows 200 (1 − cos ω̃t) with the step's rotation error ω̃ = (2/h) atan(h/2) only. This is the locking "
    f"Crisfield & Shi describe, shown with the same models and steps.")
commands = [r.command() for r in runs.values()]
sl.write_fragment(args, "Crisfield & Shi: energy-conserving midpoint against Newmark at large steps", commands,
                  table, [(png_bathe, "Bathe pendulum: energy and strain energy, midpoint vs Newmark"),
                          (png_path, "Bathe pendulum: swing angle"),
                          (png_chain, "free-flying chain: energy, midpoint vs Newmark")], interp)
