#!/usr/bin/env python3
"""A polling loop under `hetscale measure` (bench/programs/testany_loop.c).

    check_polling.py HETSCALE TESTANY_LOOP WORK_DIR

On 2 ranks, 100,000 MPI_Testany polls a rank with a little arithmetic
between them: one poll in 16 is timed and the others only counted, so the
record must still hold every call (200,000), give MPI_Testany a time, book
that time as waiting (each rank's t_idle at least its share of it), and keep
each rank's parts within t_par.
"""
import json
import os
import subprocess
import sys

import checks


def main(hetscale, loop, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "polling.json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--",
                          loop, "100000", "30"], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        print(f"the run failed ({run.returncode}): {run.stderr}", file=sys.stderr)
        return 1
    data = json.load(open(record))
    problems = []
    polls = [f for f in data["context"]["mpi_functions"] if f["function"] == "MPI_Testany"]
    if not polls or polls[0]["calls"] != 200000:
        problems.append(f"MPI_Testany: {polls[0]['calls'] if polls else 'no'} calls, not 200000")
    elif not polls[0]["seconds"] > 0.0:
        problems.append("MPI_Testany has no time")
    else:
        idle = sum(node["t_idle"] for node in data["nodes"])
        if idle < 0.99 * polls[0]["seconds"]:
            problems.append(f"the ranks' t_idle {idle:.6f} s holds less than MPI_Testany's {polls[0]['seconds']:.6f} s")
    for node in data["nodes"]:
        parts = sum(node.get(k, 0.0) for k in ("t_comp", "t_comm", "t_setup", "t_idle", "t_other", "t_blocked"))
        if parts > 1.01 * data["t_par"]:
            problems.append(f"{node['name']}: parts {parts:.6f} s exceed t_par {data['t_par']:.6f} s")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
