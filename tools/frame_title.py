"""What the frames of a run directory are, for the title of tools/render's pictures and
tools/view's: the model's name and what a frame's "time" (the `timestep` of results.pvd) means.

  dynamic run                     t = 1.25 s
  static run                      load factor 0.50       (a static run's frames are load increments)
  eigen or buckling run           state of the eigen-analysis / of the buckling analysis (its one frame)
  modes/mode_NN of an eigen run   mode 2, 7.36 Hz, phase 0.25   (modes.csv; the frames draw one period)
  modes/buckling_mode             buckling mode, load factor 3.21, phase 0.25   (summary.json's linear one)

The analysis comes from the run's summary.json (`analysis`; a mode directory's is two levels up);
a directory without one (an older run, a copy of the frames alone) is titled as a dynamic run.
Plain Python (no ParaView): tools/render's tests import it with the system Python.
"""
import csv
import json
import math
import os
import re

MODE_DIRECTORY = re.compile(r"mode_(\d+)$")


def read_summary(directory):
    """summary.json of `directory` as a dict, {} when it has none or it cannot be read."""
    try:
        with open(os.path.join(directory, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return {}
    return summary if isinstance(summary, dict) else {}


def mode_row(run_directory, mode):
    """The row of modes.csv for mode number `mode` (1 first, as in the mode_NN directories), or None."""
    try:
        with open(os.path.join(run_directory, "modes.csv"), newline="") as f:
            for row in csv.DictReader(f):
                if row.get("mode", "").strip() == str(mode):
                    return row
    except OSError:
        pass
    return None


def hertz(text):
    """A frequency to three significant digits, no exponent ("7.36 Hz", "17.0 Hz", "1234 Hz"), or
    None when not a number."""
    try:
        f = float(text)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(f):
        return None
    decimals = max(0, 2 - math.floor(math.log10(abs(f)))) if f else 0
    return f"{f:.{decimals}f} Hz"


def mode_label(run_directory, mode):
    """'mode 2, 7.36 Hz' (elastic), 'mode 1, rigid' or 'mode 3, unstable' from modes.csv."""
    row = mode_row(run_directory, mode)
    if row is None:
        return f"mode {mode}"
    kind = (row.get("kind") or "").strip()
    if kind in ("rigid", "unstable"):
        return f"mode {mode}, {kind}"
    frequency = hertz(row.get("frequency_hz"))
    return f"mode {mode}, {frequency}" if frequency else f"mode {mode}"


def buckling_label(summary):
    factor = summary.get("critical_load_factor_linear")
    return f"buckling mode, load factor {factor:.4g}" if isinstance(factor, (int, float)) else "buckling mode"


class FrameTitle:
    """The title of one run directory's frames: `annotation(spec)`, the model's name and what a
    frame is as a format for ParaView's AnnotateTime (`{time:SPEC}` where the frame's time goes);
    `text(t)`, what the frame at t is ("load factor 0.5")."""

    def __init__(self, model, what, time_label):
        """what: the fixed part ("mode 2, 7.36 Hz"), or None; time_label: a format with
        `{time}` ("load factor {time}"), or None when the time means nothing (a single state)."""
        self.model, self.what, self.time_label = model, what, time_label

    def caption(self, spec):
        parts = [self.what] if self.what else []
        if self.time_label:
            parts.append(self.time_label.replace("{time}", "{time:" + spec + "}"))
        return ", ".join(parts)

    def annotation(self, spec):
        return f"{self.model}    {self.caption(spec)}"

    def text(self, t, spec="g"):
        return self.caption(spec).format(time=t)


def frame_title(directory):
    """The FrameTitle of the run directory `directory` (the one holding results.pvd)."""
    directory = os.path.abspath(directory)
    name = os.path.basename(directory)
    parent = os.path.dirname(directory)
    mode = MODE_DIRECTORY.match(name)
    if os.path.basename(parent) == "modes" and (mode or name == "buckling_mode"):
        run = os.path.dirname(parent)
        summary = read_summary(run)
        model = summary.get("model_name") or os.path.basename(run)
        what = mode_label(run, int(mode.group(1))) if mode else buckling_label(summary)
        return FrameTitle(model, what, "phase {time}")
    summary = read_summary(directory)
    model = summary.get("model_name") or name
    analysis = summary.get("analysis")
    if analysis == "static":
        return FrameTitle(model, None, "load factor {time}")
    if analysis in ("eigen", "buckling"):
        return FrameTitle(model, f"state of the {'eigen-analysis' if analysis == 'eigen' else 'buckling analysis'}", None)
    return FrameTitle(model, None, "t = {time} s")
