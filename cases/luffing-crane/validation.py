"""luffing-crane: what tools/validate runs and checks; the references and the tolerances are in
reference.yaml (computed by reference.py), the set-up and discussion in README.md. Static: one
frame at the equilibrium, no plot."""
import math

from validation.case import Check, Run, ref
from validation.measures import summary_count as count

# A dynamic run of 0.5 s that starts from the static equilibrium at t = 0
# (analysis.initial_equilibrium): the crane stays at rest there.
REST = ["analysis.type=dynamic", "analysis.initial_equilibrium=true", "analysis.dt=0.01", "analysis.t_end=0.5"]

RUNS = [
    Run("main"),                                        # boom horizontal at the start
    Run("raised", sets=["th0=40*pi/180"]),              # boom 40 degrees up: pseudo-transient continuation
    Run("spin", sets=["joints.foot.kind=spherical"]),   # the foot a spherical joint: barrel and rod spin freely
    Run("rest", sets=REST),                             # a dynamic run from the initial equilibrium
]


def elevation_deg(start_deg):
    """The boom's elevation at equilibrium: the start plus the hinge's relative rotation [deg]."""
    return lambda run: start_deg(run) + math.degrees(run.boom_angle[-1])


def elevation_from_tip_deg(run):
    return math.degrees(math.asin((run.tip_z[-1] - run.ref("model", "hH")) / run.ref("model", "lB")))


def cylinder_force(run):
    """k (L - L_rest) from the prismatic joint's law: minus its reaction on the rod along the axis."""
    return -run.cylinder_push[-1]


def cylinder_force_from_length(run):
    """k (L0 + slide - L_rest), the slide the prismatic joint's relative_z."""
    return run.ref("model", "k") * (run.ref("start", "length") + run.extension[-1] - run.ref("model", "L_rest"))


def vertical_reactions(run):
    """The hinge's (its y is global z) and the foot's (z along u0, y = (-uz, 0, ux)) [N]."""
    return run.hinge_up[-1] + run.foot_fy[-1] * run.ref("start", "ux") + run.foot_fz[-1] * run.ref("start", "uz")


def out_of_plane(run):
    return max(abs(run.rod_y[-1]), abs(run.foot_tilt[-1]), abs(run.foot_twist[-1]))



def zero(run):
    return 0.0


def rel(quantity, run, value, reference="theta_deg"):
    return Check(quantity, run, value, reference=ref(reference), tolerance=ref("tolerance"), error="rel")


CHECKS = [
    rel("boom elevation θ* (hinge's relative_rz) [deg]", "main", elevation_deg(zero)),
    rel("boom elevation θ* from the tip's height [deg]", "main", elevation_from_tip_deg),
    rel("cylinder force k (L − 5) (prismatic joint's reaction_force_z) [N]", "main", cylinder_force,
        "cylinder_force"),
    rel("cylinder force k (L0 + relative_z − 5) [N]", "main", cylinder_force_from_length, "cylinder_force"),
    rel("vertical reactions, hinge + foot = total weight [N]", "main", vertical_reactions, "total_weight"),
    Check("out of the plane: max |rod_y|, |foot_tilt|, |foot_twist|", "main", out_of_plane,
          tolerance=ref("plane_tolerance")),
    Check("Newton iterations (summary.json newton_iterations), boom horizontal", "main", count("newton_iterations")),
    Check("of which pseudo-transient corrections (equilibrium_iterations)", "main", count("equilibrium_iterations")),
    rel("boom elevation θ*, boom 40° up at the start [deg]", "raised", elevation_deg(ref("raised_start_deg"))),
    rel("cylinder force, boom 40° up at the start [N]", "raised", cylinder_force, "cylinder_force"),
    Check("Newton iterations, boom 40° up at the start", "raised", count("newton_iterations")),
    Check("of which pseudo-transient corrections", "raised", count("equilibrium_iterations")),
    rel("boom elevation θ*, spherical foot (free spin) [deg]", "spin", elevation_deg(zero)),
    rel("cylinder force, spherical foot (free spin) [N]", "spin", cylinder_force, "cylinder_force"),
    Check("spin about the cylinder's axis |foot_twist| [rad], spherical foot", "spin",
          lambda run: abs(run.foot_twist[-1]), tolerance=ref("plane_tolerance")),
    Check("Newton iterations, spherical foot", "spin", count("newton_iterations")),
    Check("of which pseudo-transient corrections", "spin", count("equilibrium_iterations")),
    rel("boom elevation θ* at t = 0.5 s of a dynamic run from the initial equilibrium [deg]", "rest",
        elevation_deg(zero)),
    rel("cylinder force at t = 0.5 s of that run [N]", "rest", cylinder_force, "cylinder_force"),
    Check("pseudo-transient corrections of that initial equilibrium (equilibrium_iterations)", "rest",
          count("equilibrium_iterations")),
]
