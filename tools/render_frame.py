"""pvbatch side of tools/render (run it through tools/render, which checks the arguments and
encodes movies): builds tools/catena_view.py's pipeline once, then saves one PNG per frame asked
for. One pvbatch start serves every frame of a movie: starting ParaView and its Python costs
several seconds, a frame a fraction of one.

Input by environment: CATENA_RENDER_JOB, JSON {"run": DIR, "field": NAME or null, "size": [W, H],
"verbose": bool, "movie": bool, "frames": [[t, PNG], ...], "fit_frame": index in results.pvd or null}
(fit_frame: the camera fits that frame alone, --camera frame; null: every frame of the run). Output: with "verbose", one line per frame
`frame K t=T camera ...` (the camera used, which tools/render's tests compare between frames) and
the time it took, then `drawn K: title '...'; triads at nodes [...]` (the title as drawn, and the
node_id of every point that carries a triad). A line
`catena-render: warning: ...` for what the picture may hide (a colour field that changes sign
from frame to frame), which tools/render prints on stderr. Exit code 2 with
`catena-render: input error: ...` for a field or run the pipeline cannot use.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catena_view  # noqa: E402  (after the path to tools/)
from paraview import simple  # noqa: E402
from paraview_run import RENDER_WARNING  # noqa: E402


def main():
    job = json.loads(os.environ["CATENA_RENDER_JOB"])
    width, height = job["size"]
    start = time.monotonic()
    try:
        run = catena_view.Run(job["run"])
        view = simple.CreateView("RenderView")
        pipeline = catena_view.Pipeline(run, view, job.get("field"), (width, height), job.get("fit_frame"))
    except catena_view.InputError as e:
        print(f"catena-render: input error: {e}", flush=True)
        sys.exit(2)
    for warning in pipeline.warnings:
        print(f"{RENDER_WARNING}{warning}", flush=True)
    if job.get("verbose"):
        camera = "run" if job.get("fit_frame") is None else f"frame {job['fit_frame']}"
        print(f"pipeline: {'scene.pvd' if run.scene else 'results.pvd only'}; colour {pipeline.field.label} "
              f"range {pipeline.range[0]:.6g} .. {pipeline.range[1]:.6g}"
              + (f" ({pipeline.note})" if pipeline.note else "")
              + f"; camera fits {camera}; built in {time.monotonic() - start:.2f} s", flush=True)
    for k, (t, png) in enumerate(job["frames"]):
        frame_start = time.monotonic()
        pipeline.show_time(t)
        pipeline.save_png(png, 1 if job.get("movie") else 9)
        if job.get("verbose"):
            print(f"frame {k} t={t!r} camera {catena_view.camera_of(view)} "
                  f"({time.monotonic() - frame_start:.3f} s)", flush=True)
            print(f"drawn {k}: title '{pipeline.title_format.format(time=t)}'; "
                  f"triads at nodes [{', '.join(map(str, pipeline.triad_node_ids()))}]", flush=True)


main()
