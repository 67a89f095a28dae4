"""omar-statics: what tools/validate runs and checks; the closed forms and tolerances are in
reference.yaml (computed by reference.py), the set-up and discussion in README.md.

Each run is one static analysis (a single load step at full gravity, solved by pseudo-transient
continuation). The checks read the last row of energy.csv and sensors.csv: the potential, which
energy.csv measures from the start configuration, is brought to the hinge height with the start's
closed-form potential; the link ends are each link's centre plus its start half-vectors (from the
t = 0 row) turned by the link's rotation about y."""
import math

from validation.case import Check, Run, ref

RUNS = [
    Run("pendulum", sets=["n=1", "theta1=90"]),
    Run("chain_tilted"),                                  # the model as is: 5 + (k - 1) degrees
    Run("chain_horizontal", sets=["theta1=90", "dtheta=0"]),
]


def potential_from_hinge(variant):
    """The equilibrium's potential relative to the hinge height [J]: energy.csv's (from the start)
    plus the start's closed form."""
    return lambda run: run.potential[-1] + run.ref(variant, "start_potential")


def link_ends(run, n):
    """The lower end of every link at the end of the run, [(x, z)], from link k's centre and its
    turn ry about y applied to its start half-vector (centre minus upper end at t = 0; the upper
    end of link 1 is the hinge at the origin, of link k the lower end of link k - 1 at t = 0)."""
    ends, upper = [], (0.0, 0.0)
    for k in range(1, n + 1):
        x0, z0 = run.col(f"x{k}")[0], run.col(f"z{k}")[0]
        hx, hz = x0 - upper[0], z0 - upper[1]             # half-vector from the upper end to the centre
        upper = (x0 + hx, z0 + hz)                        # the lower end at t = 0
        phi = run.col(f"ry{k}")[-1]                       # turn about +y: (x, z) -> (x cos + z sin, -x sin + z cos)
        c, s = math.cos(phi), math.sin(phi)
        ends.append((run.col(f"x{k}")[-1] + hx * c + hz * s, run.col(f"z{k}")[-1] - hx * s + hz * c))
    return ends


def max_end_x(variant):
    """Largest |x| of the link ends [m] (straight below the hinge: 0)."""
    return lambda run: max(abs(x) for x, _ in link_ends(run, run.ref(variant, "n")))


def max_end_z_error(variant):
    """Largest |z + k L| of the lower end of link k [m]."""
    return lambda run: max(abs(z + k * run.ref("length"))
                           for k, (_, z) in enumerate(link_ends(run, run.ref(variant, "n")), start=1))


def checks(variant, text):
    return [
        Check(f"{text}: potential from the hinge height at the equilibrium [J]", variant,
              potential_from_hinge(variant), reference=ref(variant, "hanging_potential"),
              tolerance=ref("potential_tolerance"), error="rel"),
        Check(f"{text}: max |x| of the link ends [m]", variant, max_end_x(variant),
              tolerance=ref("position_tolerance")),
        Check(f"{text}: max |z + k L| of the end of link k [m]", variant, max_end_z_error(variant),
              tolerance=ref("position_tolerance")),
    ]


CHECKS = [
    *checks("pendulum", "pendulum, started horizontal"),
    Check("pendulum: final potential, energy.csv, vs Omar's -12.9455 J (5 digits) [J]", "pendulum",
          lambda run: run.potential[-1], reference=ref("paper_final_potential"), tolerance=ref("paper_tolerance")),
    *checks("chain_tilted", "50 links, link k at 4 + k degrees"),
    *checks("chain_horizontal", "50 links, started horizontal"),
]
