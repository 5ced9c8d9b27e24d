#!/usr/bin/env python3
"""The functional split against the constant-speed splits, measured.

  fpm_gain.py --hetscale H --mpiexec M [--flags "F1;F2"] [--kernel ge] [--orders 1000,2000,3000]
              [--speeds 1,0.5,0.25] [--repetitions 5] [--points 8] [--measure one|all]

For each order N: `hetscale bench fpm` measures every rank's speed (emulated
relative speeds --speeds) at --points share sizes from N / 32 to N rows
(one rank at a time, or all at once with --measure all); then the kernel
runs at N with its rows shared three ways, alternated --repetitions times:

- marked: the kernels' default (`--distribution marked`): in proportion to
  the marked speeds of seed 001 (`hetscale bench speed`, one rank at a
  time, measured once per N: `--marked PLATFORM`);
- constant: in proportion to each rank's modelled speed at the even share
  N / p (what a benchmark of the kernel at that size gives: `--marked-speeds`);
- functional: `--distribution fpm:MODEL` (the numerical partition of N rows).

It prints, per N, the predicted ratio of the constant and functional
makespans (`hetscale partition`), the measured T_par of each split
(medians), the ratios marked / functional and constant / functional (above
1, the functional split is faster), and in how many of the alternated
rounds the functional split was the faster. Nothing is
asserted: where the functional split wins and where it does not is the
result.
"""
import argparse
import json
import os
import statistics
import tempfile

import mpi_launch


def run(command):
    return mpi_launch.run(command, "fpm_gain")


def main():
    parser = argparse.ArgumentParser()
    mpi_launch.add_launcher_options(parser)
    parser.add_argument("--kernel", default="ge")
    parser.add_argument("--orders", default="1000,2000,3000")
    parser.add_argument("--speeds", default="1,0.5,0.25")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--points", type=int, default=8)
    parser.add_argument("--measure", choices=["one", "all"], default="one")
    args = parser.parse_args()
    speeds = [float(s) for s in args.speeds.split(",")]
    ranks = len(speeds)
    launcher = mpi_launch.launcher(args, ranks)
    rows = []
    with tempfile.TemporaryDirectory(prefix="fpm-gain-") as folder:
        for order in [int(n) for n in args.orders.split(",")]:
            sizes = sorted({max(1, round(order * (k + 1) / args.points)) for k in range(args.points)}
                           | {max(1, order // 32)})
            model_path = os.path.join(folder, f"model-{order}.json")
            run(launcher + [args.hetscale, "bench", "fpm", "--kernel", args.kernel, "--order", str(order), "--sizes",
                            ",".join(str(s) for s in sizes), "--speeds", args.speeds, "--max-seconds", "3",
                            "--out", model_path, "--one-at-a-time" if args.measure == "one" else "--all-at-once"])
            view = json.loads(run([args.hetscale, "model", "fpm", model_path, "--sizes",
                                   str(max(1, round(order / ranks))), "--json"]))
            constant_speeds = [node["speeds"][0]["speed"] for node in view["nodes"]]
            predicted = json.loads(run([args.hetscale, "partition", "--model", model_path, "--units", str(order),
                                        "--algorithm", "numerical", "--extrapolate", "--json"]))
            marked_path = os.path.join(folder, f"marked-{order}.json")
            run(launcher + [args.hetscale, "bench", "speed", "--speeds", args.speeds, "--out", marked_path])
            times = {"marked": [], "constant": [], "functional": []}
            for _ in range(args.repetitions):
                for split in times:
                    out = os.path.join(folder, f"run-{order}-{split}.json")
                    how = {"marked": ["--marked", marked_path],
                           "constant": ["--marked-speeds", ",".join(f"{s:.9g}" for s in constant_speeds)],
                           "functional": ["--distribution", f"fpm:{model_path}"]}[split]
                    run(launcher + [args.hetscale, "kernel", args.kernel, "--size", str(order), "--speeds", args.speeds,
                                    "--out", out] + how)
                    with open(out) as f:
                        times[split].append(json.load(f)["t_par"])
            median = {split: statistics.median(values) for split, values in times.items()}
            wins = {split: sum(f < o for o, f in zip(times[split], times["functional"]))
                    for split in ("marked", "constant")}
            rows.append((order, predicted["constant_over_partition"], median, wins,
                         [n["units"] for n in predicted["partition"]["nodes"]],
                         [n["units"] for n in predicted["constant"]["nodes"]]))
    print(f"## The functional split against the marked and the constant ones: kernel {args.kernel}, emulated speeds {args.speeds}, "
          f"{os.cpu_count()} cores, models measured {'one rank at a time' if args.measure == 'one' else 'all at once'}, "
          f"medians of {args.repetitions} alternated runs\n")
    print("| N | rows (functional) | rows (constant) | predicted constant / functional | measured T marked (s) | "
          "measured T constant (s) | measured T functional (s) | measured marked / functional | "
          "measured constant / functional | functional faster than marked, than constant |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for order, predicted_ratio, median, wins, fpm_rows, constant_rows in rows:
        print(f"| {order} | {','.join(map(str, fpm_rows))} | {','.join(map(str, constant_rows))} | "
              f"{predicted_ratio:.3f} | {median['marked']:.4g} | {median['constant']:.4g} | "
              f"{median['functional']:.4g} | {median['marked'] / median['functional']:.3f} | "
              f"{median['constant'] / median['functional']:.3f} | "
              f"{wins['marked']} of {args.repetitions}, {wins['constant']} of {args.repetitions} |")

if __name__ == "__main__":
    main()
