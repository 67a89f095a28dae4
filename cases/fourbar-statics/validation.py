"""fourbar-statics: what tools/validate runs and checks; the references and the tolerance are in
reference.yaml (computed by reference.py), the set-up and discussion in README.md. Static: one
frame at the equilibrium, no plot."""
import math

from validation.case import Check, Run, ref
from validation.measures import summary_count as count

# A dynamic run of 0.5 s that starts from the static equilibrium at t = 0
# (analysis.initial_equilibrium): the linkage stays at rest there.
REST = ["analysis.type=dynamic", "analysis.initial_equilibrium=true", "analysis.dt=0.01", "analysis.t_end=0.5"]

RUNS = [
    Run("main"),                                 # the start of model.yaml, th0 = 15 deg
    Run("far", sets=["th0=120*pi/180"]),         # 153.7 degrees off: pseudo-transient continuation
    Run("rest", sets=REST),                      # a dynamic run from the initial equilibrium
]


def final(name):
    return lambda run: getattr(run, name)[-1]


def crank_deg(start):
    """The crank angle at equilibrium: the start plus joint A's relative rotation [deg]."""
    return lambda run: start(run) + math.degrees(run.crank_turn[-1])



CHECKS = [
    Check("crank angle θ*, th0 = 15° (start + joint A's relative_rz) [deg]", "main",
          crank_deg(ref("start", "theta_deg")), reference=ref("theta_deg"), tolerance=ref("tolerance"), error="rel"),
    Check("crank angle θ* from the crank's centre, atan2(y, x) [deg]", "main",
          lambda run: math.degrees(math.atan2(run.crank_y[-1], run.crank_x[-1])),
          reference=ref("theta_deg"), tolerance=ref("tolerance"), error="rel"),
    Check("rocker angle φ* (start + joint D's relative_rz) [deg]", "main",
          lambda run: run.ref("start", "phi_deg") + math.degrees(run.rocker_turn[-1]),
          reference=ref("phi_deg"), tolerance=ref("tolerance"), error="rel"),
    Check("spring angle β* = ψ* − θ* (start + joint B's relative_rz) [deg]", "main",
          lambda run: run.ref("start", "psi_deg") - run.ref("start", "theta_deg") + math.degrees(run.spring_turn[-1]),
          reference=ref("beta_deg"), tolerance=ref("tolerance"), error="rel"),
    Check("spring moment on the coupler (joint B's reaction_moment_z) [N m]", "main",
          final("spring_moment"), reference=ref("spring_moment"), tolerance=ref("tolerance"), error="rel"),
    Check("vertical ground reactions A + D = total weight [N]", "main",
          lambda run: run.A_fy[-1] + run.D_fy[-1], reference=ref("total_weight"), tolerance=ref("tolerance"), error="rel"),
    Check("Newton iterations (summary.json newton_iterations), th0 = 15°", "main", count("newton_iterations")),
    Check("of which pseudo-transient corrections (equilibrium_iterations), th0 = 15°", "main",
          count("equilibrium_iterations")),
    Check("crank angle θ*, th0 = 120° [deg]", "far",
          crank_deg(ref("far_start_deg")), reference=ref("theta_deg"), tolerance=ref("tolerance"), error="rel"),
    Check("Newton iterations (newton_iterations), th0 = 120°", "far", count("newton_iterations")),
    Check("of which pseudo-transient corrections (equilibrium_iterations), th0 = 120°", "far",
          count("equilibrium_iterations")),
    Check("crank angle θ* at t = 0.5 s of a dynamic run from the initial equilibrium [deg]", "rest",
          crank_deg(ref("start", "theta_deg")), reference=ref("theta_deg"), tolerance=ref("tolerance"), error="rel"),
    Check("pseudo-transient corrections of that initial equilibrium (equilibrium_iterations)", "rest",
          count("equilibrium_iterations")),
]
