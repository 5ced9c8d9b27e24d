#!/usr/bin/env python3
"""Threads of different speeds: `hetscale measure --emulate-thread-speeds 1,0.5`
on a program that shares a loop of equal units between its 2 threads
(tests/measure/programs/openmp_chunks.c, 2 ranks, every unit on the
computing thread's own CPU clock).

    check_openmp_thread_speeds.py HETSCALE CHUNKS WORK_DIR

With OpenMP's static schedule (equal chunks) each rank's threads' efficiency
(APGA 2004 Eq 7 over the team, `analyze --json`'s openmp_threads) is within
0.03 of 2/3, their speeds within 0.03 of 1 and 0.5 and the shares in
proportion to them of 2/3 and 1/3; the program run again with those shares
has its busiest thread's time (work + held, the record's threads) within
10 % of the time analyze predicted for it. Both amounts are the threads' own
CPU time and what they owed for it, so they hold however busy the machine
is. Also: the record gives each thread's speed; a run without the option
has no held time.
"""
import json
import os
import subprocess
import sys

import checks

TOLERANCE = 0.03
STEPS, UNITS, UNIT = "8", "120", "0.001"


def measure(hetscale, program, record, options, shares=None):
    environment = dict(os.environ, OMP_NUM_THREADS="2")
    command = ["mpiexec", "--oversubscribe", "--bind-to", "none", "-np", "2", hetscale, "measure", "--out", record]
    arguments = [STEPS, UNITS, UNIT] + ([shares] if shares else [])
    run = subprocess.run(command + options + ["--", program] + arguments, capture_output=True, text=True,
                         env=environment, timeout=300)
    if run.returncode != 0:
        raise SystemExit(f"{program} failed ({run.returncode}): {run.stderr[-800:]}")
    analysis = subprocess.run([hetscale, "analyze", record, "--json"], capture_output=True, text=True, timeout=60)
    if analysis.returncode != 0:
        raise SystemExit(f"analyze {record} failed: {analysis.stderr}")
    with open(record) as f:
        return json.load(f), json.loads(analysis.stdout), run.stdout


def busiest(threads):
    return max(thread["work"] + thread["held"] for thread in threads)


def main(hetscale, chunks, work):
    os.makedirs(work, exist_ok=True)
    problems = []
    emulated = ["--emulate-thread-speeds", "1,0.5"]
    record, analysis, said = measure(hetscale, chunks, os.path.join(work, "static.json"), emulated)
    if "units per thread: 60 60" not in said:
        problems.append(f"the static schedule did not give 60 units a thread: {said.strip()}")
    ranks = analysis.get("openmp_threads", [])
    if len(ranks) != 2:
        return checks.verdict([f"analyze gives {len(ranks)} ranks' threads, not 2"])
    for r, rank in enumerate(ranks):
        threads = rank["threads"]
        listed = record["context"]["openmp"]["threads"][r]
        if [t["speed"] for t in listed] != [1.0, 0.5]:
            problems.append(f"rank {r}: the record's thread speeds {[t['speed'] for t in listed]}, not [1, 0.5]")
        checks_of_rank = [("threads' efficiency", rank["efficiency"], 2 / 3)]
        checks_of_rank += [(f"thread {t['thread']}'s speed", t["speed"], wanted) for t, wanted in zip(threads, (1, 0.5))]
        checks_of_rank += [(f"thread {t['thread']}'s proposed share", t["proposed_share"], wanted)
                           for t, wanted in zip(threads, (2 / 3, 1 / 3))]
        for name, value, wanted in checks_of_rank:
            if abs(value - wanted) > TOLERANCE:
                problems.append(f"rank {r}: {name} {value:.4f}, wanted {wanted:.4f}")
        speeds = ", ".join(f"{t['speed']:.4f}" for t in threads)
        print(f"rank {r}: efficiency {rank['efficiency']:.4f} (2/3), speeds {speeds}, "
              f"busiest thread {rank['busiest']:.4f} s, "
              f"predicted with the proposed shares {rank['balanced']:.4f} s")
    shares = ",".join(f"{t['proposed_share']:.4f}" for t in ranks[0]["threads"])
    chunked, _, said = measure(hetscale, chunks, os.path.join(work, "chunked.json"), emulated, shares)
    print(f"run again with shares {shares}: {said.strip()}")
    for r, rank in enumerate(ranks):
        measured = busiest(chunked["context"]["openmp"]["threads"][r])
        error = measured / rank["balanced"] - 1
        print(f"rank {r}: busiest thread {measured:.4f} s against {rank['balanced']:.4f} s predicted ({error:+.1%})")
        if abs(error) > 0.10:
            problems.append(f"rank {r}: the proposed shares' busiest thread took {measured:.4f} s, predicted "
                            f"{rank['balanced']:.4f} s ({error:+.1%}, more than 10 %)")
    plain, _, _ = measure(hetscale, chunks, os.path.join(work, "plain.json"), ["--openmp"])
    held = [t["held"] for rank in plain["context"]["openmp"]["threads"] for t in rank]
    if any(h != 0 for h in held) or not held:
        problems.append(f"without --emulate-thread-speeds the threads' held times are {held}, not all 0")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
