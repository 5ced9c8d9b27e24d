#!/usr/bin/env python3
"""An OpenMP team under `hetscale measure --emulate-speeds` (the stencil's
OpenMP loop of two threads, tests/measure/programs/stencil.c).

    check_openmp_emulated.py HETSCALE STENCIL WORK_DIR

On 2 ranks emulated at 1,0.5: the pool's thread of rank 1 (it never calls
MPI) is held back too, (1/0.5 - 1) = 1 times its time on a CPU (within
30 %: its CPU clock counts a little of the region's barrier besides its
part), and rank 0's not at all; rank 1's t_comp is within 10 % of its own
CPU time over 0.5.
"""
import json
import os
import re
import subprocess
import sys

import checks


def main(hetscale, stencil, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "openmp-emulated.json")
    environment = dict(os.environ, OMP_NUM_THREADS="2", OMP_WAIT_POLICY="passive")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record,
                          "--emulate-speeds", "1,0.5", "--", stencil, "--steps", "20", "--cells", "2000000",
                          "--threads", "openmp"], capture_output=True, text=True, env=environment, timeout=300)
    if run.returncode != 0:
        print(f"the run failed ({run.returncode}): {run.stderr}", file=sys.stderr)
        return 1
    own = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"stencil rank (\d+) cpu (\S+)", run.stdout)}
    data = json.load(open(record))
    problems = []
    for rank, speed in ((0, 1.0), (1, 0.5)):
        pool = [t for t in data["context"]["threads"][rank] if not t["calls_mpi"] and t["on_cpu"] > 0.01]
        if not pool:
            problems.append(f"rank {rank}: no pool thread in the record's threads")
        for thread in pool:
            ratio = thread["held"] / thread["on_cpu"]
            wanted = 1.0 / speed - 1.0
            if abs(ratio - wanted) > 0.3 * max(wanted, 1.0):
                problems.append(f"rank {rank}: a pool thread held back {thread['held']:.4f} s for "
                                f"{thread['on_cpu']:.4f} s on a CPU ({ratio:.2f} x, not {wanted:.2f} x)")
    expected = own[1] / 0.5
    t_comp = data["nodes"][1]["t_comp"]
    if abs(t_comp / expected - 1.0) > 0.10:
        problems.append(f"rank 1: t_comp {t_comp:.4f} s against its own {expected:.4f} s")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
