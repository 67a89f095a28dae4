"""Model.modes, Model.buckling, Model.sensitivity, Model.gradient: linearized analyses and
derivatives as data (NumPy arrays and dicts) instead of files."""
import contextlib
import dataclasses
import os
import tempfile
import typing

import numpy as np

from . import _catena
from ._results import read, read_csv


def names(parameters):
    """Parameter names as a list: a list, or one string as `catena run` takes it ("a0,a1")."""
    if isinstance(parameters, str):
        return [name for name in parameters.split(",") if name]
    return [str(name) for name in parameters]


@contextlib.contextmanager
def output_directory(out):
    """`out`, or a temporary directory removed afterwards (with the mode shapes in it). Under MPI
    rank 0 writes the files: every rank runs into rank 0's directory and reads them there, and it
    is removed once every rank has."""
    if out is not None:
        yield os.fspath(out)
        return
    with tempfile.TemporaryDirectory(prefix="catena-") as own:
        yield _catena.broadcast_text(own)
        _catena.barrier()


@dataclasses.dataclass
class Modes:
    """An eigen-analysis's modes (modes.csv), lowest first: NumPy arrays, one entry per mode.

    mode (1, 2, ...), frequency_hz (damped, |Im s|/2π), natural_frequency_hz (|s|/2π),
    damping_ratio (−Re s/|s|), s (the eigenvalue [1/s], complex), kind ("rigid", "elastic",
    "unstable"); sensitivities: mode_sensitivities.csv's columns ("frequency_hz:p", ...) with
    `sensitivity=[...]`, else None; summary: summary.json's content; directory: where the files
    are (the shapes in modes/mode_NN/results.pvd), None when they were in a temporary directory.
    """
    mode: np.ndarray
    frequency_hz: np.ndarray
    natural_frequency_hz: np.ndarray
    damping_ratio: np.ndarray
    s: np.ndarray
    kind: list
    summary: dict
    sensitivities: typing.Optional[dict] = None
    directory: typing.Optional[str] = None


@dataclasses.dataclass
class Buckling:
    """A buckling analysis's results: critical_load_factor_linear (the linear buckling problem
    about the preload), critical_load_factor_tracked (where the lowest stiffness eigenvalue crosses
    zero along the load path; None when it does not), preload, path (buckling.csv: load_factor,
    lowest_stiffness_eigenvalue [N/m]), sensitivities ({"critical_load_factor_linear:p": value}
    with `sensitivity=[...]`, else None), summary, directory (the buckling mode in
    modes/buckling_mode/results.pvd; None when it was a temporary directory)."""
    critical_load_factor_linear: float
    critical_load_factor_tracked: typing.Optional[float]
    preload: float
    path: dict
    summary: dict
    sensitivities: typing.Optional[dict] = None
    directory: typing.Optional[str] = None


@dataclasses.dataclass
class Sensitivities:
    """A run's derivatives by parameters (sensitivities.csv, in memory): derivatives {"t": times,
    "sensor:p": ..., "kinetic:p": ..., "objective:p": ...}; sensors (the values, sensors.csv's
    columns); objective and objective_gradient ({p: dΨ/dp}) when the model has an objective, else
    None; summary."""
    derivatives: dict
    sensors: dict
    summary: dict
    objective: typing.Optional[float] = None
    objective_gradient: typing.Optional[dict] = None


class Gradient(typing.NamedTuple):
    """The objective Ψ and its gradient {parameter: dΨ/dp}: `objective, gradient = m.gradient(...)`."""
    objective: float
    gradient: dict


def optional_csv(path):
    return read_csv(path) if os.path.isfile(path) else None


def modes(model, out, options):
    with output_directory(out) as directory:
        model.run(directory, **options)
        results = read(directory)
        columns = results.modes
        sensitivities = optional_csv(os.path.join(directory, "mode_sensitivities.csv"))
    return Modes(mode=columns["mode"].astype(int), frequency_hz=columns["frequency_hz"],
                 natural_frequency_hz=columns["natural_frequency_hz"], damping_ratio=columns["damping_ratio"],
                 s=columns["s_real"] + 1j * columns["s_imag"], kind=[str(kind) for kind in columns["kind"]],
                 summary=results.summary, sensitivities=sensitivities, directory=None if out is None else directory)


def buckling(model, out, options):
    with output_directory(out) as directory:
        model.run(directory, **options)
        results = read(directory)
        row = optional_csv(os.path.join(directory, "buckling_sensitivities.csv"))
    summary = results.summary
    return Buckling(critical_load_factor_linear=summary["critical_load_factor_linear"],
                    critical_load_factor_tracked=summary["critical_load_factor_tracked"],
                    preload=summary["preload"], path=results.buckling, summary=summary,
                    sensitivities=None if row is None else {name: float(value[0]) for name, value in row.items()},
                    directory=None if out is None else directory)


def refuse_linearized(model, method):
    if model.analysis in ("eigen", "buckling"):
        raise ValueError(f"{method}: the derivatives of a dynamic or static run; model '{model.name}' is an "
                         f"{model.analysis} analysis: {'modes' if model.analysis == 'eigen' else 'buckling'}"
                         f"(sensitivity=[...]) gives its derivatives")


def sensitivity(model, parameters, options):
    refuse_linearized(model, "sensitivity")
    sim = model.simulate(sensitivity=names(parameters), **options)
    summary = sim.run()
    return Sensitivities(derivatives=sim.sensitivities, sensors=sim.sensors, summary=summary,
                         objective=summary.get("objective"), objective_gradient=summary.get("objective_gradient"))


def gradient(model, parameters, options):
    refuse_linearized(model, "gradient")
    summary = model.simulate(gradient=names(parameters), **options).run()
    return Gradient(objective=summary["objective"], gradient=summary["objective_gradient"])
