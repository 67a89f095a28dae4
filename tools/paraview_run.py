"""System-Python side shared by tools/render and tools/view: where ParaView's Python modules are,
whether ParaView is usable, and how to start pvbatch (or the GUI) with them.

Debian's python3-paraview conflicts with python3-vtk9 (which libvtk9-dev needs), so it is never
installed: `tools/install-deps --paraview` unpacks it into a private directory, which every
ParaView process started here gets on PYTHONPATH.
"""
import os
import shutil
import subprocess
import sys

EXIT_BAD_INPUT = 2
EXIT_NO_PARAVIEW = 3
EXIT_RENDER_FAILED = 4
# The start of a line of tools/render_frame.py's output that tools/render passes on to stderr:
# what a picture may hide (tools/catena_view.py, Pipeline.warnings).
RENDER_WARNING = "catena-render: warning: "
HERE = os.path.dirname(os.path.abspath(__file__))


def fail(tool, message, code=EXIT_BAD_INPUT):
    print(f"{tool}: {message}", file=sys.stderr)
    sys.exit(code)


def paraview_python_dir():
    """Where tools/install-deps --paraview unpacks python3-paraview (same rule as there)."""
    root = os.environ.get("CATENA_PARAVIEW_PYTHON")
    if not root:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(cache, "catena", "paraview-python")
    return os.path.join(root, "usr", "lib", "python3", "dist-packages")


def missing_paraview(programs=("pvbatch", "Xvfb")):
    """What is missing to run ParaView's Python here (empty when nothing is)."""
    modules = paraview_python_dir()
    missing = [p for p in programs if shutil.which(p) is None]
    if not os.path.isdir(os.path.join(modules, "paraview")):
        missing.append(f"ParaView's Python modules in {modules}")
    return missing


def require_paraview(tool, programs=("pvbatch", "Xvfb")):
    missing = missing_paraview(programs)
    if missing:
        fail(tool, "ParaView is missing (" + ", ".join(missing) + "): run tools/install-deps --paraview",
             EXIT_NO_PARAVIEW)


def paraview_environment(extra):
    env = dict(os.environ)
    modules = paraview_python_dir()
    env["PYTHONPATH"] = modules + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(extra)
    return env


class VirtualDisplay:
    """An Xvfb of its own for one ParaView process, on a display number the X server picks itself
    (-displayfd: it binds the first free one). xvfb-run -a guesses a number from the lock files
    instead, and two renders starting together (parallel tests, other users) can both take it:
    pvbatch then aborts with "bad X server connection". -noreset: pvbatch opens the display,
    closes it (its OpenGL check) and opens it again at once, and a server resetting after its
    last client left refuses that second connection (the same abort, now and then)."""

    def __init__(self, width, height):
        read_end, write_end = os.pipe()
        self.server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_end)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_end)
        if not number.strip().isdigit():
            self.close()
            raise RuntimeError("Xvfb did not start (no display number)")
        self.display = ":" + number.decode().strip()

    def close(self):
        self.server.terminate()
        try:
            self.server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def run_pvbatch(script, extra_env, width, height, echo=None, args=()):
    """pvbatch SCRIPT on a virtual X server of the picture's size; returns (exit code, output).
    SCRIPT: in tools/ or an absolute path; `args` go to it (pvbatch takes its own options from
    the command line too, so the tools pass their job by environment). `echo`:
    a function given each output line as it comes (--verbose)."""
    # --no-mpi: one process, and a second less to start (no MPI initialisation).
    command = ["pvbatch", "--no-mpi", os.path.join(HERE, script), *args]
    lines = []
    try:
        with VirtualDisplay(width, height) as display:
            env = paraview_environment({**extra_env, "DISPLAY": display.display})
            process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for line in process.stdout:
                lines.append(line)
                if echo and not line.startswith("catena-render: input error"):
                    echo(line)
            code = process.wait()
    except (OSError, RuntimeError) as e:
        return EXIT_RENDER_FAILED, f"{e}\n"
    return code, "".join(lines)
