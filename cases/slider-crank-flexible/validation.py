"""slider-crank-flexible: what tools/validate runs, checks and plots; the references and tolerances are in
reference.yaml, the set-up and discussion in README.md."""
from validation.case import Check, Line, Panel, Plot, Run, Series, ref
from validation.measures import first_max

RUNS = [
    Run("omega124.8", sets=["analysis.output_every=1"], short=["analysis.t_end=0.008"]),
    Run("omega150", sets=["omega=150", "slider_mass=0.0378126", "analysis.output_every=1"],
        short=["analysis.t_end=0.008"]),
]

CHECKS = [
    Check("first maximum of mid_deflection_ratio, ω = 124.8 rad/s", "omega124.8",
          lambda run: first_max(run.mid_deflection_ratio),
          reference=ref("variants", 0, "first_maximum"),
          tolerance=ref("tolerance"),
          error="rel"),
    Check("first maximum of mid_deflection_ratio, ω = 150 rad/s, slider 0.0378 kg", "omega150",
          lambda run: first_max(run.mid_deflection_ratio),
          reference=ref("variants", 1, "first_maximum"),
          tolerance=ref("tolerance"),
          error="rel"),
]

PLOT = Plot("slider-crank-flexible: rod mid-point deflection / rod length", [
    Panel("mid_deflection_ratio [–]",
          series=[
              Series("omega124.8", lambda run: run.mid_deflection_ratio,
                     label="Catena, ω = 124.8 rad/s", x=lambda run: run.crank_angle),
              Series("omega150", lambda run: run.mid_deflection_ratio,
                     label="Catena, ω = 150 rad/s, slider 0.0378 kg", x=lambda run: run.crank_angle)],
          lines=[
              Line(ref("variants", 0, "first_maximum"), label="Meijaard first maximum, 124.8 rad/s"),
              Line(ref("variants", 1, "first_maximum"), label="Meijaard first maximum, 150 rad/s", style="-.")],
          xlabel="crank angle [rad]"),
])
