#!/usr/bin/env python3
"""`hetscale measure` reads the run-queue delay of every thread of a rank
(programs/worker_thread.c).

    check_worker_thread.py HETSCALE PROGRAM WORK_DIR

One rank and a busy loop share CPU 0 (taskset): the rank's worker thread
computes 0.4 s of CPU time while its main thread sleeps, so the worker waits
in the run queue about as long as it runs. The record must show that wait as
t_other and keep t_comp near the worker's CPU time (within 25 %); read from
the main thread alone, t_other would be 0 and t_comp about twice as long.
"""
import json
import os
import subprocess
import sys

import checks


def main(hetscale, program, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "worker_thread.json")
    busy = subprocess.Popen(["taskset", "-c", "0", sys.executable, "-c", "while True: pass"])
    try:
        run = subprocess.run(["taskset", "-c", "0", "mpiexec", "--bind-to", "none", "-np", "1", hetscale, "measure",
                              "--out", record, "--", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=120)
    finally:
        busy.kill()
        busy.wait()
    if run.returncode != 0 or "worker_thread: rank 0" not in run.stdout:
        print(f"measure failed ({run.returncode}): {run.stdout}{run.stderr}", file=sys.stderr)
        return 1
    with open(record) as f:
        node = json.load(f)["nodes"][0]
    print(f"t_comp {node['t_comp']:.4f} s, t_other {node['t_other']:.4f} s, t_idle {node['t_idle']:.4f} s")
    problems = []
    if abs(node["t_comp"] - 0.4) > 0.1:
        problems.append(f"t_comp {node['t_comp']:.4f} s is not the worker's 0.4 s of CPU within 25 %")
    if node["t_other"] < 0.15:
        problems.append(f"t_other {node['t_other']:.4f} s: the worker's wait in the run queue is missing")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
