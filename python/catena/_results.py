"""catena.read: the files of a finished run (energy.csv, sensors.csv, summary.json, ...) as data."""
import dataclasses
import json
import os

import numpy as np


def read_csv(path):
    """A CSV file of Catena's ({column: array}, in the file's order). Numbers are parsed with
    float(), which gives back the %.17g values bit for bit; a column that is not numeric (modes.csv's
    `kind`) is an array of strings."""
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split(",")
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    columns = {}
    for j, name in enumerate(header):
        texts = [row[j] for row in rows]
        try:
            columns[name] = np.array([float(text) for text in texts], dtype=float)
        except ValueError:
            columns[name] = np.array(texts, dtype=str)
    return columns


@dataclasses.dataclass
class Results:
    """A finished run's files: each CSV file as {column: array}, summary.json as a dict; None
    for a file the run did not write."""
    directory: str
    summary: dict
    energy: dict = None
    sensors: dict = None
    sensitivities: dict = None
    modes: dict = None
    buckling: dict = None


_CSV_FILES = {"energy": "energy.csv", "sensors": "sensors.csv", "sensitivities": "sensitivities.csv",
              "modes": "modes.csv", "buckling": "buckling.csv"}


def read(directory):
    """The results `catena run` (or Model.simulate(out=...)) wrote to `directory`."""
    directory = os.fspath(directory)
    summary_file = os.path.join(directory, "summary.json")
    if not os.path.isfile(summary_file):
        raise FileNotFoundError(f"{directory}: no summary.json: not the output directory of a run")
    with open(summary_file, encoding="utf-8") as f:
        summary = json.load(f)
    files = {}
    for field, name in _CSV_FILES.items():
        path = os.path.join(directory, name)
        files[field] = read_csv(path) if os.path.isfile(path) else None
    return Results(directory=directory, summary=summary, **files)
