#!/usr/bin/env python3
"""Runs of short MPI calls under `hetscale measure` (programs/short_calls.c).

    check_short_calls.py HETSCALE PROGRAM WORK_DIR

On 2 ranks the program makes 70,000 MPI_Allreduce calls back to back, with
0.3 s of computation after the first 50,000 and rank 1 late once by 0.2 s in
the last 20,000, and prints each rank's computation as its thread's CPU clock
read it. Measured as is (one short call in 32 timed, the others counted):
- every call is in the record (70,000 a rank), and the record says how many
  were counted, not timed;
- each rank's t_comp is its own computation within 5 %, give or take the
  time the record says it could not split (unsplit_seconds: at most a
  sampling period a break);
- rank 0's wait for rank 1, inside a counted call, is MPI time (at least
  0.15 s of t_idle and t_comm), not computation: its unsplit stays under
  0.1 s;
- no rank's parts exceed t_par and the longest rank's make it, and `analyze`
  reads the record.
On 4 ranks (two a core: each call leaves its CPU, none is counted), with a
tenth of the calls, each rank's t_comp is its own computation within 5 %
and the parts add up.
Measured with --time-every-call: nothing counted, no short_calls in the record,
and each rank's t_comp its own computation within 5 %. With --thread, a
second thread makes 50,000 short calls a rank and ends before MPI_Finalize:
every one of them is in the record, with a time.
"""
import json
import os
import re
import subprocess
import sys

import checks

PARTS = ("t_comp", "t_comm", "t_setup", "t_idle", "t_other", "t_blocked")


def measured(hetscale, program, record, *options, arguments=(), ranks=2):
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "measure", "--out", record, *options,
                          "--", program, *arguments], capture_output=True, text=True, timeout=150)
    if run.returncode != 0:
        raise RuntimeError(f"the run failed ({run.returncode}): {run.stderr}")
    own = {int(rank): float(seconds) for rank, seconds in re.findall(r"rank (\d) computed ([0-9.]+) s", run.stdout)}
    return json.load(open(record)), own


def check_record(data, own, label, problems, calls_a_rank=70000):
    calls = [f["calls"] for f in data["context"]["mpi_functions"] if f["function"] == "MPI_Allreduce"]
    if calls != [calls_a_rank * len(data["nodes"])]:
        problems.append(f"{label}: MPI_Allreduce calls {calls}, not [{calls_a_rank * len(data['nodes'])}]")
    short = data["context"].get("short_calls")
    unsplit = short["unsplit_seconds"] if short else [0.0] * len(data["nodes"])
    for rank, node in enumerate(data["nodes"]):
        if rank not in own:
            problems.append(f"{label}: rank {rank} printed no computation")
            continue
        error = abs(node["t_comp"] - own[rank])
        if error > 0.05 * own[rank] + unsplit[rank]:
            problems.append(f"{label}: rank {rank}'s t_comp {node['t_comp']:.4f} s against its own {own[rank]:.4f} s, "
                            f"more than 5 % + the {unsplit[rank]:.4f} s not split")
        parts = sum(node.get(k, 0.0) for k in PARTS)
        if parts > 1.01 * data["t_par"]:
            problems.append(f"{label}: rank {rank}'s parts {parts:.6f} s exceed t_par {data['t_par']:.6f} s")
    # A rank that began later (MPI_Init's start differs by a few ms, more on a
    # busy machine) has less; the longest is t_par.
    longest = max(sum(node.get(k, 0.0) for k in PARTS) for node in data["nodes"])
    if abs(longest - data["t_par"]) > 0.01 * data["t_par"]:
        problems.append(f"{label}: the longest rank's parts {longest:.6f} s are not t_par {data['t_par']:.6f} s")
    return short


def main(hetscale, program, work):
    os.makedirs(work, exist_ok=True)
    problems = []
    record = os.path.join(work, "short_calls.json")
    data, own = measured(hetscale, program, record)
    short = check_record(data, own, "as is", problems)
    if not short or not all(count > 0 for count in short["counted_calls"]):
        problems.append(f"as is: no calls counted in runs of short calls ({short})")
    else:
        for rank, (node, seconds) in enumerate(zip(data["nodes"], short["unsplit_seconds"])):
            if seconds > min(node["t_comp"] + 1e-6, 0.1):
                problems.append(f"as is: rank {rank}'s unsplit {seconds:.4f} s is more than its t_comp "
                                f"{node['t_comp']:.4f} s or 0.1 s (computation that may have been a wait)")
        waited = data["nodes"][0]["t_idle"] + data["nodes"][0]["t_comm"]
        if waited < 0.15:
            problems.append(f"as is: rank 0's MPI time {waited:.4f} s, less than the 0.2 s it waited for rank 1")
    analyzed = subprocess.run([hetscale, "analyze", record], capture_output=True, text=True, timeout=60)
    if analyzed.returncode != 0:
        problems.append(f"analyze refused the record: {analyzed.stderr.strip()}")
    four = os.path.join(work, "four_ranks.json")
    data, own = measured(hetscale, program, four, arguments=["--fewer"], ranks=4)
    check_record(data, own, "4 ranks", problems, calls_a_rank=7000)
    every = os.path.join(work, "every_call.json")
    data, own = measured(hetscale, program, every, "--time-every-call")
    if check_record(data, own, "--time-every-call", problems):
        problems.append("--time-every-call: the record still has short_calls")
    threaded = os.path.join(work, "thread.json")
    data, _ = measured(hetscale, program, threaded, arguments=["--thread"])
    calls = {f["function"]: f for f in data["context"]["mpi_functions"]}
    allreduce = calls.get("MPI_Allreduce", {})
    if allreduce.get("calls") != 100000 or not allreduce.get("seconds", 0.0) > 0.0:
        problems.append(f"--thread: MPI_Allreduce {allreduce.get('calls')} calls in {allreduce.get('seconds')} s, "
                        "not 100000 with a time")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
