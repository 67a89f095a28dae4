"""slider-crank-design: what tools/validate runs and checks; the references (Hou's Table B.2) and
tolerances are in reference.yaml, the set-up, the fit of the path's end and the discussion in
README.md. The derivatives come from `--sensitivity a0,a1,a2` (summary.json's objective_gradient)."""
from validation.case import Check, Run, ref


def gradient(parameter):
    """dPsi/d<parameter> from the run's summary.json."""
    return lambda run: run.summary("objective_gradient")[parameter]


RUNS = [Run("main", options=["--sensitivity", "a0,a1,a2"])]

CHECKS = [Check("dPsi/da0 (fitted through beta)", "main", gradient("a0"), reference=ref("dPsi_da0"),
                tolerance=ref("fit_tolerance"))] + [
    Check(f"dPsi/da{i} (Table B.2, adjoint)", "main", gradient(f"a{i}"), reference=ref(f"dPsi_da{i}"),
          tolerance=ref("tolerance"), error="rel") for i in (1, 2)]
