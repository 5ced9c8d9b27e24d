#!/usr/bin/env python3
"""Does the threads' what-if hold? One rank of two OpenMP threads emulated at
speeds 1 and 0.5 (`hetscale measure --emulate-thread-speeds 1,0.5`) runs a
loop of equal units with OpenMP's static schedule, then with the shares
`analyze` proposes in proportion to the threads' speeds (APGA 2004,
Proposition 1), alternated.

    thread_chunking.py [--check] [--runs K] HETSCALE CHUNKS [WORK_DIR]

CHUNKS is tests/measure/programs/openmp_chunks.c built (build/tests/
openmp_chunks). Each static run's analysis predicts the time of its parallel
regions with the proposed shares (its regions' time less what the busiest
thread would no longer take); the goal: the mean time the proposed shares'
regions took by the program's own wall clock within 10 % of the mean
predicted one. The rank is not bound to a core (`--bind-to none`), so each
thread can have a core of this 2-core machine. Prints a table; --check exits
1 when the goal is missed.
"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing written into the sources
from mpi_launch import check_runs_and_work  # noqa: E402 (beside this file)

SPEEDS = "1,0.5"
PROGRAM = ["20", "120", "0.002"]  # steps, units, seconds of CPU a unit
GOAL = 0.10


def measure(hetscale, chunks, work, name, shares=None):
    record = os.path.join(work, name + ".json")
    run = subprocess.run(["mpiexec", "--bind-to", "none", "-np", "1", hetscale, "measure", "--emulate-thread-speeds",
                          SPEEDS, "--out", record, "--", chunks] + PROGRAM + ([shares] if shares else []),
                         capture_output=True, text=True, timeout=900, env=dict(os.environ, OMP_NUM_THREADS="2"))
    if run.returncode != 0:
        raise SystemExit(f"thread_chunking: {name} failed ({run.returncode}): {run.stderr.strip()[-400:]}")
    took = re.search(r"regions took (\S+) s", run.stdout)
    if not took:
        raise SystemExit(f"thread_chunking: {name}: the program did not say how long its regions took")
    analysis = json.loads(subprocess.run([hetscale, "analyze", record, "--json"], capture_output=True, text=True,
                                         check=True).stdout)
    return float(took.group(1)), analysis["openmp_threads"][0]


def main():
    check, runs, hetscale, chunks, work = check_runs_and_work(__doc__, 3, "thread-chunking-")
    static, predicted, proposed, efficiency, shares = [], [], [], [], None
    for k in range(runs):
        took, threads = measure(hetscale, chunks, work, f"static-{k}")
        static.append(took)
        predicted.append(threads["predicted_in_regions"])
        efficiency.append(threads["efficiency"])
        shares = shares or ",".join(f"{t['proposed_share']:.4f}" for t in threads["threads"])
        took, _ = measure(hetscale, chunks, work, f"proposed-{k}", shares)
        proposed.append(took)
    mean_predicted, mean_proposed = statistics.mean(predicted), statistics.mean(proposed)
    error = mean_proposed / mean_predicted - 1
    met = abs(error) <= GOAL
    print(f"threads at speeds {SPEEDS}, {runs} runs of each split in turn (regions' time by the program's wall clock)")
    print("| split | regions (s) | threads' efficiency e | predicted with the proposed shares (s) | error | goal |")
    print("|---|---|---|---|---|---|")
    print(f"| static (equal chunks) | {statistics.mean(static):.3f} | {statistics.mean(efficiency):.3f} | "
          f"{mean_predicted:.3f} | | |")
    print(f"| proposed ({shares}) | {mean_proposed:.3f} | | | {error:+.1%} "
          f"({min(proposed) / mean_predicted - 1:+.1%} .. {max(proposed) / mean_predicted - 1:+.1%}) | "
          f"within 10 %: {'met' if met else 'missed'} |")
    return 0 if met or not check else 1


if __name__ == "__main__":
    sys.exit(main())
