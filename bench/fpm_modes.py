#!/usr/bin/env python3
"""Marked speeds measured one rank at a time against all at once.

  fpm_modes.py --hetscale H --mpiexec M [--flags "F1;F2"] [--speeds 1,0.5,0.5,0.25]
               [--kernel ge] [--order 1000] [--sizes 50,200,800] [--repetitions 3]

Runs `hetscale bench fpm` in both modes, alternated, `--repetitions` times,
on as many ranks as speeds (emulated relative speeds), and prints per rank
and size the speed measured each way relative to rank 0's (what a
distribution by marked speeds would use), beside the emulated speeds, and
the modes' ratio. On a machine with fewer cores than ranks, ranks measured
all at once share the cores: their speeds are what a run of all of them
gets, not the node's own. Nothing is asserted: it prints what this machine
gives, medians of the repetitions.
"""
import argparse
import json
import os
import statistics
import tempfile

import mpi_launch


def main():
    parser = argparse.ArgumentParser()
    mpi_launch.add_launcher_options(parser)
    parser.add_argument("--speeds", default="1,0.5,0.5,0.25")
    parser.add_argument("--kernel", default="ge")
    parser.add_argument("--order", type=int, default=1000)
    parser.add_argument("--sizes", default="50,200,800")
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()
    speeds = [float(s) for s in args.speeds.split(",")]
    sizes = [int(s) for s in args.sizes.split(",")]
    ranks = len(speeds)
    launcher = mpi_launch.launcher(args, ranks)
    relative = {mode: [[[] for _ in sizes] for _ in range(ranks)] for mode in ("one", "all")}
    with tempfile.TemporaryDirectory(prefix="fpm-modes-") as folder:
        for repetition in range(args.repetitions):
            for mode in ("one", "all"):
                out = os.path.join(folder, f"{mode}-{repetition}.json")
                command = launcher + [args.hetscale, "bench", "fpm", "--kernel", args.kernel, "--order",
                                      str(args.order), "--sizes", args.sizes, "--speeds", args.speeds,
                                      "--max-seconds", "3", "--out", out,
                                      "--one-at-a-time" if mode == "one" else "--all-at-once"]
                mpi_launch.run(command, "fpm_modes")
                with open(out) as f:
                    model = json.load(f)
                for k in range(len(sizes)):
                    first = model["nodes"][0]["points"][k]["speed"]
                    for r in range(ranks):
                        relative[mode][r][k].append(model["nodes"][r]["points"][k]["speed"] / first)
    print(f"## Marked speeds one rank at a time and all at once: bench fpm --kernel {args.kernel} --order "
          f"{args.order}, {ranks} ranks, {os.cpu_count()} cores, medians of {args.repetitions} alternated runs\n")
    print("| rank | emulated speed | size | one at a time / rank 0 | all at once / rank 0 | all / one |")
    print("|---|---|---|---|---|---|")
    for r in range(ranks):
        for k, size in enumerate(sizes):
            one = statistics.median(relative["one"][r][k])
            every = statistics.median(relative["all"][r][k])
            print(f"| {r} | {speeds[r]:g} | {size} | {one:.3f} | {every:.3f} | {every / one:.3f} |")


if __name__ == "__main__":
    main()
