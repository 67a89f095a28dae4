"""catena.Model: a model file or text with its overrides, read and validated when made."""
import os

from . import _analyses, _catena


def _override(key, value):
    """`--set key=value` of one entry of Model's `set`: numbers written exactly (repr), booleans
    as YAML's, anything else (an expression, a name) as its text."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = repr(value)
    else:
        text = str(value)
    return f"{key}={text}"


def _overrides(values):
    if values is None:
        return []
    if isinstance(values, dict):
        return [_override(key, value) for key, value in values.items()]
    if isinstance(values, str):
        raise TypeError("set: expected a dict {key: value} or a list of 'key=value' strings; found a string")
    return [str(item) for item in values]


class Model:
    """A model, read and validated as `catena check` reads it (raises catena.Error otherwise).

    Model(path, set=None) reads a model file; Model(text=..., name=..., set=None) a model's YAML
    text, `name` taking the file's place in messages. `set` replaces parameters or any scalar by
    dotted path, as `catena run --set` does: {"analysis.dt": 0.01, "l": 2} (or ["l=2", ...]).

    Attributes: name, analysis ("dynamic", "static", "eigen", "buckling"), dt and t_end (the
    nominal step or first increment, and the end [s]), nodes and sensors (their names, in the
    model's order), parameters ({name: value}, after `set`).
    """

    def __init__(self, path=None, *, text=None, name=None, set=None):  # noqa: A002 (catena run's --set)
        if (path is None) == (text is None):
            raise TypeError("Model: give a model file or text=..., one of them")
        self.path = os.fspath(path) if path is not None else (name or "<model text>")
        self.text = text
        self.overrides = _overrides(set)
        facts = _catena.describe(self.path, text=self.text, overrides=self.overrides)
        self.name = facts["name"]
        self.analysis = facts["analysis"]
        self.dt = facts["dt"]
        self.t_end = facts["t_end"]
        self.nodes = facts["nodes"]
        self.sensors = facts["sensors"]
        self.parameters = facts["parameters"]

    def __repr__(self):
        return f"catena.Model({self.path!r}, name={self.name!r}, analysis={self.analysis!r})"

    def check(self):
        """What `catena check` prints, as a dict (nodes, unknowns, nonzeros, elements per kind,
        sets, beam_axes, sensors, analysis settings, constraints); raises catena.Error (exit_code
        2) where `catena check` refuses the model (redundant constraints)."""
        return _catena.check(self.path, text=self.text, overrides=self.overrides)

    def simulate(self, out=None, *, output_every=None, checkpoint_every=None, restart=None, resume=None,
                 sensitivity=(), gradient=(), quiet=True, threads=0):
        """A simulation of this model, set up and ready to step (catena.Simulation).

        out=None: in memory, nothing written (the rows are in sim.sensors and sim.energy); a
        directory: the files `catena run --out DIR` writes. resume: a catena.Checkpoint
        (Simulation.checkpoint()) to continue from. The other arguments are catena run's options
        of the same names (restart: a checkpoint file; sensitivity, gradient: parameter names;
        quiet=False: the progress line and summary on stderr; threads=0: OMP_NUM_THREADS or every
        processor).
        """
        return _catena.Simulation(
            self.path, text=self.text, overrides=self.overrides,
            out=None if out is None else os.fspath(out), output_every=output_every,
            checkpoint_every=checkpoint_every, restart=None if restart is None else os.fspath(restart), resume=resume,
            sensitivity=_analyses.names(sensitivity), gradient=_analyses.names(gradient), quiet=quiet, threads=threads)

    def run(self, out=None, **options):
        """simulate(out, **options).run(): the whole run; returns the summary (summary.json's
        content). Eigen and buckling analyses need `out` (their modes are files); read them back
        with catena.read(out); modes() and buckling() give them as data."""
        return self.simulate(out, **options).run()

    def modes(self, out=None, **options):
        """The eigen-analysis of this model (of this model with analysis.type=eigen set, unless it
        is one; its other analysis keys stay) as a catena.Modes: modes.csv's columns as NumPy
        arrays (mode, frequency_hz, natural_frequency_hz, damping_ratio, s complex, kind a list of
        str), mode_sensitivities.csv's columns with sensitivity=[...], the summary.

        out=None runs in a temporary directory, removed afterwards; a directory keeps the files,
        the mode shapes among them: out/modes/mode_NN/results.pvd. options: simulate's.
        """
        return _analyses.modes(self._as("eigen"), out, options)

    def buckling(self, out=None, **options):
        """The buckling analysis of this model (analysis.type=buckling set, unless it is one) as a
        catena.Buckling: the critical load factors (summary.json's), the load path (buckling.csv),
        buckling_sensitivities.csv's row with sensitivity=[...], the summary. out as for modes();
        the buckling mode is out/modes/buckling_mode/results.pvd."""
        return _analyses.buckling(self._as("buckling"), out, options)

    def sensitivity(self, parameters, **options):
        """A run in memory with --sensitivity `parameters` (names, or "p1,p2"): a
        catena.Sensitivities, the derivatives as sensitivities.csv's columns {"t": ..., "sensor:p":
        array, ...}, the sensors, and the objective's gradient {p: dΨ/dp} when the model has an
        objective. options: simulate's."""
        return _analyses.sensitivity(self, parameters, options)

    def gradient(self, parameters, **options):
        """A run in memory with --gradient `parameters` (the adjoint): catena.Gradient(objective,
        gradient), gradient {p: dΨ/dp}. Raises catena.Error without analysis.objective."""
        return _analyses.gradient(self, parameters, options)

    def _as(self, analysis):
        """This model, or this model with analysis.type=`analysis` set (what that refuses, an
        objective say, is said to come from the set type)."""
        if self.analysis == analysis:
            return self
        overrides = self.overrides + [f"analysis.type={analysis}"]
        try:
            if self.text is None:
                return Model(self.path, set=overrides)
            return Model(text=self.text, name=self.path, set=overrides)
        except _catena.Error as error:
            method = "modes" if analysis == "eigen" else analysis
            raised = _catena.Error(f"{error} ({method}() runs this {self.analysis} model with "
                                   f"analysis.type={analysis}, which refuses that key: give {method}() a model "
                                   "without it)")
            raised.exit_code = error.exit_code
            raise raised from error
