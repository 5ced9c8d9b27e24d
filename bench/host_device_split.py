#!/usr/bin/env python3
"""Does the split between a rank's cores and its device hold? `hetscale bench
fpm --device mm` measures one rank's cores (BLAS, one thread) and its OpenMP
target device (hetscale's offloaded matrix product; here LLVM's host plugin,
one thread) as two speed functions; examples/library/host_device_rows then
computes ROWS rows of C = A B split between them by the model (numerical
partition) and evenly, alternated, RUNS times each, each run's median
iteration timed by the program itself.

    host_device_split.py [--check] [--runs K] HETSCALE HOST_DEVICE_ROWS [WORK_DIR]

HOST_DEVICE_ROWS is the example built (build/tests/example_host_device_rows).
The predictions: the model's makespan for its split (the program prints it),
and for the even split each processor's half at its model speed (`hetscale
model fpm --sizes`). Goals: the model split's measured makespan within 15 % of
its prediction, and the gain over the even split (even / model) within 15 %
of the predicted gain. OMP_NUM_THREADS=1 so that the device's thread and the
cores' thread each have a core of this 2-core machine; KMP_BLOCKTIME=0 so
that the device's runtime does not spin between kernels. Prints a table;
--check exits 1 when a goal is missed.
"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing written into the sources
from mpi_launch import check_runs_and_work  # noqa: E402 (beside this file)

ORDER, ROWS = 500, 4000
SIZES = "100,400,800,1600,2400,3200,4000"
GOAL = 0.15
ENVIRONMENT = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", KMP_BLOCKTIME="0")
MPIEXEC = ["mpiexec", "--bind-to", "none", "-np", "1"]


def run(command, what):
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, env=ENVIRONMENT)
    if done.returncode != 0:
        raise SystemExit(f"host_device_split: {what} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return done.stdout


def split_run(program, model, split):
    out = run(MPIEXEC + [program, model, str(ROWS), str(ORDER), split], f"the {split} split")
    found = re.search(r"makespan (\S+) s \(predicted (\S+) s\); every row once: yes; rows right, on the device: yes",
                      out)
    if not found:
        raise SystemExit(f"host_device_split: the {split} split did not compute every row once and right:\n{out}")
    shares = re.search(r"cores (\d+) rows in \S+ s \(predicted \S+ s\), device (\d+) rows", out)
    return float(found.group(1)), float(found.group(2)), (int(shares.group(1)), int(shares.group(2)))


def main():
    check, runs, hetscale, program, work = check_runs_and_work(__doc__, 5, "host-device-split-")
    model = os.path.join(work, "model.json")
    run(MPIEXEC + [hetscale, "bench", "fpm", "--kernel", "mm", "--order", str(ORDER), "--sizes", SIZES, "--device",
                   "mm", "--out", model], "bench fpm --device")
    half = ROWS // 2
    view = json.loads(run([hetscale, "model", "fpm", model, "--sizes", str(half), "--json"], "model fpm"))
    even_predicted = max(node["speeds"][0]["seconds"] for node in view["nodes"])

    model_times, even_times, model_predicted, shares = [], [], None, None
    for _ in range(runs):
        took, model_predicted, shares = split_run(program, model, "numerical")
        model_times.append(took)
        even_times.append(split_run(program, model, "even")[0])
    model_took, even_took = statistics.median(model_times), statistics.median(even_times)
    gain, gain_predicted = even_took / model_took, even_predicted / model_predicted
    model_error, gain_error = model_took / model_predicted - 1.0, gain / gain_predicted - 1.0
    met = abs(model_error) <= GOAL and abs(gain_error) <= GOAL

    print(f"## A rank's cores and its device sharing {ROWS} rows of C = A B (order {ORDER}): medians of {runs} runs\n")
    print("| split | cores rows | device rows | makespan | predicted | error |\n|---|---|---|---|---|---|")
    print(f"| by the model (numerical) | {shares[0]} | {shares[1]} | {model_took:.4f} s | {model_predicted:.4f} s | "
          f"{100 * model_error:+.1f} % |")
    print(f"| even | {half} | {ROWS - half} | {even_took:.4f} s | {even_predicted:.4f} s | "
          f"{100 * (even_took / even_predicted - 1):+.1f} % |")
    print(f"\ngain of the model's split over the even one: {gain:.2f}x measured, {gain_predicted:.2f}x predicted "
          f"({100 * gain_error:+.1f} %); goal: both within {100 * GOAL:.0f} %: {'met' if met else 'missed'}\n")
    return 0 if met or not check else 1


if __name__ == "__main__":
    sys.exit(main())
