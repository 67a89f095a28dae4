"""tumbling-beam-3d: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import deviation_in, drift_in

RUNS = [Run("main", short=["analysis.t_end=10"])]

CHECKS = [
    Check("max |balance − balance(0)| / K0", "main",
          drift_in("balance", "energy_scale_K0"),
          tolerance=ref("energy_tolerance")),
    Check("max drift of px, py, pz / K0", "main",
          lambda run: max(run.drift(run.px), run.drift(run.py), run.drift(run.pz)) / run.ref("energy_scale_K0"),
          tolerance=ref("energy_tolerance")),
    Check("max drift of Lx, Ly, Lz / K0", "main",
          lambda run: max(run.drift(run.Lx), run.drift(run.Ly), run.drift(run.Lz)) / run.ref("energy_scale_K0"),
          tolerance=ref("energy_tolerance")),
]

PLOT = Plot("tumbling-beam-3d: free beam, energy and momenta", [
    Panel("energy [J]",
          series=[
              Series("main", lambda run: run.kinetic, label="kinetic"),
              Series("main", lambda run: run.strain, label="strain"),
              Series("main", lambda run: run.balance, label="kinetic + strain")]),
    Panel("|x(t) − x(0)| / K0 [–]",
          series=[
              Series("main", deviation_in("balance", "energy_scale_K0"), label="balance"),
              Series("main", deviation_in("Lz", "energy_scale_K0"), label="Lz"),
              Series("main", deviation_in("pz", "energy_scale_K0"), label="pz")],
          lines=[
              Line(ref("energy_tolerance"), label="tolerance 1e-8")],
          yscale="log"),
])
