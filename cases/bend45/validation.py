"""bend45: what tools/validate runs, checks and plots; the published figures and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
import numpy as np

from validation.case import Check, Panel, Plot, Points, Run, Series, ref

RUNS = [
    Run("n8", sets=["n=8"]),
    Run("n16", sets=["n=16"]),
    Run("linear", sets=["n=16", "P=0.006"]),
]
COMPONENTS = ("tip_ux", "tip_uy", "tip_uz")
PUBLISHED = [("bathe_bolourchi", "Bathe & Bolourchi 1979", "n8"),
             ("simo_vu_quoc", "Simo & Vu-Quoc 1986", "n16"),
             ("cardona_geradin", "Cardona & Géradin 1988", "n16")]


def scale(source):
    """|published tip displacement| of one source: the tolerance is a fraction of it."""
    return lambda run: float(np.sqrt(sum(run.ref(source, c) ** 2 for c in COMPONENTS)))


def final(sensor):
    return lambda run: run.col(sensor)[-1]


CHECKS = [
    Check(f"{c} [in], {runname[1:]} elements, against {label} (tolerance 1 % of |Δ|)", runname, final(c),
          reference=ref(source, c), tolerance=lambda run, s=source: run.ref("tolerance") * scale(s)(run), error="abs")
    for source, label, runname in PUBLISHED for c in COMPONENTS
] + [
    Check(f"{c} [in], 16 elements, against Catena's converged 64 elements (0.1 % of |Δ|)", "n16", final(c),
          reference=ref("converged", c),
          tolerance=lambda run: run.ref("converged_tolerance") * scale("converged")(run), error="abs")
    for c in COMPONENTS
] + [
    Check("tip_uz [in], P = 0.006 lb, 16 elements, against Castigliano (bending, torsion, shear)", "linear",
          final("tip_uz"), reference=ref("linear", "tip_uz"), tolerance=ref("linear", "tolerance"), error="rel"),
]

MARKERS = {"bathe_bolourchi": "o", "simo_vu_quoc": "s", "cardona_geradin": "^"}


def load(run):
    """The tip force [lb] along the static run's load path (P t)."""
    return 600.0 * run.t


PLOT = Plot("bend45: tip displacement against the tip force (16 and 8 elements; published: at 600 lb)", [
    Panel("tip displacement [in]", xlabel="tip force P [lb]",
          series=[Series(r, final_col, label=f"{c}, {r[1:]} elements", x=load, style=style, color=f"C{k}")
                  for k, c in enumerate(COMPONENTS)
                  for r, style in (("n16", "-"), ("n8", ":"))
                  for final_col in [lambda run, c=c: run.col(c)]],
          points=[Points(lambda run: np.full(3, 600.0), lambda run, s=source: np.array([run.ref(s, c) for c in COMPONENTS]),
                         label=label, color="k", marker=MARKERS[source])
                  for source, label, _ in PUBLISHED]),
])
