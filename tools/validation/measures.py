"""What a case's checks and plots (cases/<name>/validation.py) measure with: a run's columns, the
case's references, and the few reductions the checks share (a value at a time, a drift, a first
maximum). The functions are plain numpy; their order of operations is that of the expressions they
replace, so that every checked value stays the same to the bit.
"""
import csv
import math
import os

import numpy as np

from validation.yaml_subset import read_yaml

# frames land on the output grid up to round-off: t >= t0 - TIME_SLACK counts as "from t0 on"
TIME_SLACK = 1e-9


def read_csv(path):
    """Header names and float columns of a CSV; lines starting with # are comments."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#")) if r]
    if not rows:
        raise ValueError(f"{path}: empty file")
    header = [h.strip() for h in rows[0]]
    columns = {h: [] for h in header}
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ValueError(f"{path}: row {n}: expected {len(header)} values, found {len(row)}")
        for h, text in zip(header, row):
            columns[h].append(float(text))
    return header, columns


class References:
    """cases/<name>/reference.yaml and reference.csv, read when first asked for."""

    def __init__(self, folder):
        self.folder = folder
        self.case = os.path.basename(folder)
        self._yaml, self._csv = None, None

    def yaml(self, *path):
        """An entry of reference.yaml: ref("tolerance"), ref("variants", 0, "first_maximum")."""
        if self._yaml is None:
            file = os.path.join(self.folder, "reference.yaml")
            if not os.path.exists(file):
                raise KeyError(f"cases/{self.case}/reference.yaml does not exist")
            self._yaml = read_yaml(file) or {}
        value = self._yaml
        for depth, key in enumerate(path):
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                where = "".join(f"[{k!r}]" for k in path[:depth + 1])
                raise KeyError(f"cases/{self.case}/reference.yaml has no entry {where}") from None
        return value

    def csv_column(self, col):
        if self._csv is None:
            file = os.path.join(self.folder, "reference.csv")
            if not os.path.exists(file):
                raise KeyError(f"cases/{self.case}/reference.csv does not exist")
            self._csv = read_csv(file)[1]
        if col not in self._csv:
            raise KeyError(f"cases/{self.case}/reference.csv has no column '{col}'")
        return self._csv[col]

    def csv_at(self, keycol, key, col):
        """The entry of column col in the row where keycol equals key."""
        keys, vals = self.csv_column(keycol), self.csv_column(col)
        for k, v in zip(keys, vals):
            if abs(k - key) <= 1e-9 * max(1.0, abs(key)):
                return v
        raise KeyError(f"cases/{self.case}/reference.csv has no row with {keycol} = {key}")


class RunData:
    """One run of a case as its checks and plots see it: the columns of energy.csv and sensors.csv
    as attributes (run.t, run.balance, run.tip_x), summary.json, the case's references and the
    other runs of the case. Without a run (run=None) only the references are there."""

    def __init__(self, run, runs, refs):
        self._run, self._runs, self._refs = run, runs, refs
        self._columns = run.columns() if run is not None else {}

    def __getattr__(self, name):
        columns = self.__dict__.get("_columns", {})
        if name in columns:
            return columns[name]
        raise AttributeError(f"run has no column '{name}'")

    def col(self, name):
        """A column by name (for names that are not identifiers, or chosen in a loop)."""
        if name not in self._columns:
            raise KeyError(f"run has no column '{name}'")
        return self._columns[name]

    def summary(self, key):
        return self._run.summary()[key]

    def ref(self, *path):
        return self._refs.yaml(*path)

    def refcsv(self, col):
        return self._refs.csv_column(col)

    def refcsv_at(self, keycol, key, col):
        return self._refs.csv_at(keycol, key, col)

    def at(self, y, t0):
        """y interpolated at time t0."""
        return float(np.interp(t0, self.t, y))

    def after(self, y, t0):
        """y where t >= t0."""
        return y[self.t >= t0 - TIME_SLACK]

    def drift(self, y, t0=None):
        """max |y(t) - y(0)|, or max |y(t) - y(t0)| over t >= t0."""
        if t0 is None:
            return float(np.max(np.abs(y - y[0])))
        return float(np.max(np.abs(self.after(y, t0) - self.at(y, t0))))

    def of(self, name):
        """Another run of the case as its checks see it; that run must have completed."""
        if name not in self._runs:
            raise KeyError(f"no run '{name}' in case {self._refs.case}")
        run = self._runs[name]
        if run.returncode != 0:
            raise RuntimeError(f"run '{run.name}': {run.message}")
        return RunData(run, self._runs, self._refs)

    def other(self, name, col, t0):
        """Column col of another run of the case, at time t0; that run must have completed."""
        if name not in self._runs:
            raise KeyError(f"no run '{name}' in case {self._refs.case}")
        run = self._runs[name]
        if run.returncode != 0:
            raise RuntimeError(f"run '{run.name}': {run.message}")
        columns = run.columns()
        return float(np.interp(t0, columns["t"], columns[col]))


def first_max(y):
    """The first positive local maximum of y."""
    for k in range(1, len(y) - 1):
        if y[k] > 0 and y[k] > y[k - 1] and y[k] >= y[k + 1]:
            return float(y[k])
    raise ValueError("no local maximum")


def amplitude(y):
    """Half the peak-to-peak range, (max(y) - min(y)) / 2."""
    return float((np.max(y) - np.min(y)) / 2)


def midpoint_rate(omega, h):
    """The rate at which the midpoint rule with step h turns a body spinning at omega."""
    return 2 / h * math.atan(omega * h / 2)


def psi_spin_up(t, omega_s, T_s):
    """The hub angle of the spin-up cases: a smooth start to omega_s over T_s, then constant."""
    return np.where(t <= T_s,
                    omega_s / T_s * (t ** 2 / 2 + (T_s / (2 * np.pi)) ** 2 * (np.cos(2 * np.pi * t / T_s) - 1)),
                    omega_s * (t - T_s / 2))


def extremum(t, y, kind, t_from, t_to):
    """(value, time) of the largest (kind "max") or smallest ("min") value of y over [t_from, t_to],
    refined by the parabola through the extreme frame and its two neighbours (frames equally spaced)."""
    t, y = np.asarray(t, dtype=float), np.asarray(y, dtype=float)
    keep = (t >= t_from - TIME_SLACK) & (t <= t_to + TIME_SLACK)
    tw, yw = t[keep], (y[keep] if kind == "max" else -y[keep])
    k = int(np.argmax(yw))
    value, when = yw[k], tw[k]
    if 0 < k < len(yw) - 1:
        a, b, c = yw[k - 1], yw[k], yw[k + 1]
        shift = 0.5 * (a - c) / (a - 2 * b + c)  # in frames, within [-1/2, 1/2]
        value, when = b - 0.25 * (a - c) * shift, tw[k] + shift * (tw[k + 1] - tw[k])
    return (float(value) if kind == "max" else float(-value)), float(when)


def history_deviation(t, y, t_ref, y_ref):
    """max |y(t_k) - y_ref(t_k)| over the reference's times t_k up to the end of the run (y
    interpolated at t_k), and the t_k where it is largest."""
    t_ref, y_ref = np.asarray(t_ref, dtype=float), np.asarray(y_ref, dtype=float)
    keep = t_ref <= t[-1] + TIME_SLACK
    deviation = np.abs(np.interp(t_ref[keep], t, y) - y_ref[keep])
    k = int(np.argmax(deviation))
    return float(deviation[k]), float(t_ref[keep][k])


def floor_log(y):
    """y floored at 1e-18, for log plots of quantities that may be exactly 0."""
    return np.maximum(y, 1e-18)


def drift_in(column, scale):
    """max |y(t) - y(0)| of a column over reference.yaml's scale entry (a check's value)."""
    return lambda run: run.drift(run.col(column)) / run.ref(scale)


def deviation_in(column, scale):
    """|y(t) - y(0)| of a column over reference.yaml's scale entry, floored for a log plot."""
    return lambda run: floor_log(np.abs(run.col(column) - run.col(column)[0]) / run.ref(scale))


def summary_count(key):
    """A counter of summary.json as a check's measure (0 when summary.json leaves it out: the
    counters reported only when set)."""
    def value(run):
        try:
            return run.summary(key)
        except KeyError:
            return 0
    return value
