"""The vocabulary of a case's validation module, cases/<name>/validation.py: the runs of the case
(catena run with --set overrides), the checks (a measured value against a reference, with a
tolerance) and the plot. Values are functions of a RunData (validation.measures); references and
tolerances are numbers or, usually, entries of the case's reference.yaml or reference.csv (ref,
refcsv_at), so that each number lives in the case folder once.
"""
import dataclasses
import importlib.util
import os
from typing import Callable, Optional, Union

# a number, or a function of the RunData of the check's run (None: no tolerance, for information)
Quantity = Union[None, int, float, Callable]


def ref(*path):
    """An entry of the case's reference.yaml: ref("energy_tolerance"), ref("large", "tip_ux")."""
    return lambda run: run.ref(*path)


def refcsv_at(keycol, key, col):
    """The entry of reference.csv's column col in the row where keycol equals key."""
    return lambda run: run.refcsv_at(keycol, key, col)


def refcsv(col):
    """A column of the case's reference.csv (for reference points)."""
    return lambda run: run.refcsv(col)


def column(name):
    """A column of the run (for curves)."""
    return lambda run: run.col(name)


def summary(key):
    """An entry of the run's summary.json."""
    return lambda run: run.summary(key)


def value_at(name, t):
    """A column of the run interpolated at time t."""
    return lambda run: run.at(run.col(name), t)


def resolve(quantity, run):
    """The number a Quantity stands for, for the given RunData."""
    return quantity(run) if callable(quantity) else quantity


@dataclasses.dataclass
class Run:
    """One catena run of the case: --set overrides for both versions, then for the short or full one;
    `options`: further command-line options (`["--sensitivity", "a0,a1"]`)."""
    name: str
    sets: list = dataclasses.field(default_factory=list)
    short: list = dataclasses.field(default_factory=list)
    full: list = dataclasses.field(default_factory=list)
    options: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Check:
    """One row of the validation table.

    error: "abs" (|value - reference|), "rel" (|value - reference| / |reference|; where |reference|
    < abs_below, absolute against abs_tolerance) or "below" (the value must be at least the
    reference)."""
    quantity: str                 # the table's text
    run: str                      # the run whose columns `value` reads
    value: Callable               # RunData -> float
    reference: Quantity = 0
    tolerance: Quantity = None
    error: str = "abs"
    abs_below: Quantity = 0.0
    abs_tolerance: Quantity = None


@dataclasses.dataclass
class Series:
    """A curve of a run (x and y functions of its RunData); as a reference curve, dashed black."""
    run: str
    y: Callable
    label: Optional[str] = None
    x: Callable = lambda run: run.t
    style: Optional[str] = None
    color: Optional[str] = None
    start: Optional[float] = None  # drop the frames before this time


@dataclasses.dataclass
class Points:
    """Reference points (x and y functions of a RunData without a run: the references only)."""
    x: Callable
    y: Callable
    label: Optional[str] = None
    color: str = "k"
    marker: str = "o"


@dataclasses.dataclass
class Line:
    """A horizontal line at y (a Quantity; with run, of that run's RunData)."""
    y: Quantity
    label: Optional[str] = None
    style: str = "--"
    run: Optional[str] = None


@dataclasses.dataclass
class Panel:
    ylabel: str
    series: list = dataclasses.field(default_factory=list)
    curves: list = dataclasses.field(default_factory=list)   # reference curves (Series)
    points: list = dataclasses.field(default_factory=list)
    lines: list = dataclasses.field(default_factory=list)
    xlabel: str = "t [s]"
    yscale: Optional[str] = None
    xmin: Optional[float] = None


@dataclasses.dataclass
class Plot:
    title: str
    panels: list


def energy_panel(run="main"):
    """The energy of a case loaded for a while and then left free: kinetic, strain, their sum and
    the loads' work (the sum meets the work when the loads stop)."""
    return Panel("energy [J]", series=[
        Series(run, lambda data: data.kinetic, label="kinetic"),
        Series(run, lambda data: data.strain, label="strain"),
        Series(run, lambda data: data.kinetic + data.strain, label="kinetic + strain"),
        Series(run, lambda data: data.external_work, label="external work", style="--")])


@dataclasses.dataclass
class CaseValidation:
    """What cases/<name>/validation.py defines: RUNS, CHECKS and, for time histories, PLOT."""
    name: str
    folder: str
    runs: list
    checks: list
    plot: Optional[Plot]


def load_case(folder):
    """Imports cases/<name>/validation.py (None if the case has none)."""
    path = os.path.join(folder, "validation.py")
    if not os.path.isfile(path):
        return None
    name = os.path.basename(folder)
    spec = importlib.util.spec_from_file_location(f"case_validation_{name.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return CaseValidation(name, folder, list(module.RUNS), list(module.CHECKS), getattr(module, "PLOT", None))
