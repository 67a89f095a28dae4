"""A parameter sweep in parallel processes (docs/python.md): the spin-up beam of cases/spin-up-simo,
its tip's extreme deflection against the spin-up time T_s, one process per run, plotted to a PNG.

    PYTHONPATH=build/release/python python3 python/examples/spin_up_sweep.py --png sweep.png
"""
import argparse
import concurrent.futures
import itertools
import pathlib

import catena

CASE = pathlib.Path(__file__).resolve().parents[2] / "cases" / "spin-up-simo" / "model.yaml"


def extreme_deflection(spin_up_time, dt, settle):
    """The tip's largest deflection from the turning hub's axis [m], over the spin-up and `settle`
    seconds of steady turning after it: one whole run, in this worker process."""
    model = catena.Model(CASE, set={"T_s": spin_up_time, "analysis.dt": dt, "analysis.t_end": spin_up_time + settle})
    sim = model.simulate(threads=1)  # one core per process: the processes are the parallelism
    sim.run()
    deflection = sim.sensors["tip_deflection"]
    return deflection[abs(deflection).argmax()]


def plot(times, deflections, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(times, deflections, "o-")
    axes.set_xlabel("spin-up time $T_s$ [s]")
    axes.set_ylabel("extreme tip deflection [m]")
    axes.set_title("Spin-up beam (cases/spin-up-simo)")
    axes.grid(True)
    figure.tight_layout()
    figure.savefig(png, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--times", type=float, nargs="+", default=[5, 7.5, 10, 12.5, 15, 20],
                        help="spin-up times T_s [s] (default: 5 to 20)")
    parser.add_argument("--dt", type=float, default=0.01, help="time step [s] (the case's: 0.01)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds run after the spin-up (default 5)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per processor)")
    parser.add_argument("--png", default="spin_up_sweep.png", help="the plot's file")
    args = parser.parse_args()
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.workers) as pool:
        deflections = list(pool.map(extreme_deflection, args.times, itertools.repeat(args.dt),
                                    itertools.repeat(args.settle)))
    for spin_up_time, deflection in zip(args.times, deflections):
        print(f"T_s = {spin_up_time:5.2f} s   extreme tip deflection = {deflection:+.4f} m")
    plot(args.times, deflections, args.png)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
