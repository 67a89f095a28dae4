"""Shared helpers of the studies in tools/studies/ (running Catena, reading its CSV files, writing
the markdown fragment). Not a study itself: tools/validate runs tools/studies/*.py only."""
import argparse
import concurrent.futures
import csv
import math
import os
import shlex
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DOCS = os.path.join(REPO, "docs")


def parse_args(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--catena", default="build/release/catena",
                   help="the catena executable (default build/release/catena, relative to the repository)")
    p.add_argument("--full", action="store_true", help="the longer / finer version of the study")
    p.add_argument("--out", default="docs/validation/studies",
                   help="directory for the PNGs and the markdown fragment (default docs/validation/studies)")
    p.add_argument("--work", default=None,
                   help="directory for the runs (default out/studies/<study>)")
    p.add_argument("--jobs", type=int, default=2, help="catena runs at a time (default 2)")
    args = p.parse_args()
    os.chdir(REPO)
    args.catena = os.path.abspath(args.catena)
    if not os.access(args.catena, os.X_OK):
        sys.exit(f"{sys.argv[0]}: no executable catena at {args.catena} (build it or pass --catena)")
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    study = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    args.study = study
    args.work = os.path.abspath(args.work or os.path.join("out", "studies", study))
    os.makedirs(args.work, exist_ok=True)
    return args


def matplotlib_pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"figure.dpi": 110, "axes.grid": True, "grid.alpha": 0.3,
                         "legend.fontsize": 8, "axes.titlesize": 10})
    return plt


class Run:
    """One `catena run`: the command as written in the fragment and the results read back."""

    def __init__(self, args, case, out_name, sets=(), extra=(), model=None):
        self.case = case
        self.model = model or f"cases/{case}/model.yaml"
        self.out = os.path.join(args.work, out_name)
        self.sets = list(sets)
        self.extra = list(extra)
        self.catena = args.catena
        self.status = None
        self.seconds = None

    def argv(self, display=False):
        exe = "build/release/catena" if display else self.catena
        out = os.path.relpath(self.out, REPO) if display else self.out
        model = os.path.relpath(self.model, REPO) if display and os.path.isabs(self.model) else self.model
        a = [exe, "run", model, "--out", out]
        for s in self.sets:
            a += ["--set", s]
        return a + self.extra + ([] if display else ["--quiet"])

    def command(self):
        return " ".join(shlex.quote(x) for x in self.argv(display=True))

    def execute(self):
        t0 = time.time()
        for attempt in range(30):
            try:
                r = subprocess.run(self.argv(), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
                break
            except OSError as e:  # the executable is being rebuilt (ETXTBSY, EACCES): wait for it
                if attempt == 29:
                    sys.exit(f"{self.command()}: {e}")
                time.sleep(2)
        self.seconds = time.time() - t0
        self.returncode = r.returncode
        if r.returncode not in (0, 3):
            sys.exit(f"{self.command()} failed with exit code {r.returncode}:\n{r.stderr}")
        self.status = "completed" if r.returncode == 0 else "failed"
        return self

    def energy(self):
        return read_csv(os.path.join(self.out, "energy.csv"))

    def sensors(self):
        return read_csv(os.path.join(self.out, "sensors.csv"))


def run_all(args, runs):
    """Runs the list of Run objects, args.jobs at a time; prints one line per run."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(lambda r: r.execute(), runs):
            print(f"  [{r.seconds:6.1f} s] {r.status}: {r.command()}", flush=True)
    return runs


def read_csv(path):
    """Columns of a CSV (lines starting with # skipped) as a dict of float lists."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#")) if r]
    header = [h.strip() for h in rows[0]]
    cols = {h: [] for h in header}
    for r in rows[1:]:
        for h, v in zip(header, r):
            cols[h].append(float(v))
    return cols


def value_at(cols, name, t, tol=1e-9):
    """The value of column name in the row whose time is t (within tol)."""
    for ti, v in zip(cols["t"], cols[name]):
        if abs(ti - t) <= tol * max(1.0, abs(t)):
            return v
    raise KeyError(f"no row at t = {t} (last t = {cols['t'][-1]})")


def finish_time_panels(fig, axes, panels, suptitle, **legend):
    """Labels a row of time-history panels, one (y label, title) pair each, with time on x and a
    legend in each (keyword arguments go to legend), sets the figure's title and lays it out."""
    for a, (ylabel, title) in zip(axes, panels):
        a.set_ylabel(ylabel)
        a.set_title(title)
        a.set_xlabel("time t [s]")
        a.legend(**legend)
    fig.suptitle(suptitle, fontsize=10)
    fig.tight_layout()


def fit_slope(xs, ys):
    """Least-squares slope of log y against log x."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def fmt(x, digits=3):
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < 1e4:
        return f"{x:.{digits + 1}g}"
    return f"{x:.{digits - 1}e}"


def png_link(args, png):
    return os.path.relpath(os.path.join(args.out, png), DOCS)


def write_fragment(args, title, commands, table, figures, interpretation, notes=""):
    """Writes <out>/<study>.md: title, commands, a table (list of rows, first the header), the
    figures (list of (png, caption)) and a paragraph."""
    lines = [f"### {title}", "", "What was run" + (" (`--full`)" if args.full else
                                                     " (short version; `--full` runs the longer one)") + ":", "",
             "```"]
    lines += commands
    lines += ["```", ""]
    if notes:
        lines += [notes, ""]
    if table:
        lines.append("| " + " | ".join(table[0]) + " |")
        lines.append("|" + "---|" * len(table[0]))
        for row in table[1:]:
            lines.append("| " + " | ".join(str(c) for c in row) + " |")
        lines.append("")
    for png, caption in figures:
        lines.append(f"![{caption}]({png_link(args, png)})")
        lines.append("")
    lines += [interpretation, ""]
    path = os.path.join(args.out, f"{args.study}.md")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {os.path.relpath(path, REPO)}")
    return path
