#!/usr/bin/env python3
"""PETSc's ksp/tutorials/ex2.c (Debian's libpetsc3.18-dev-examples) under
`hetscale measure`, against PETSc's own count of its messages.

    check_petsc.py HETSCALE EX2 WORK_DIR

On 2 ranks, a 200 x 200 Laplacian solved with -log_view: PETSc's halo
exchange uses persistent requests (MPI_Send_init, MPI_Recv_init, then
MPI_Startall). -log_view's "MPI Msg Count" and "MPI Msg Len (bytes)" (their
Total column, divided by the ranks) are, per rank, half of what it sends plus
receives point to point; the record's point-to-point functions (those that
count messages) give that summed over the ranks, so their messages and
bytes, halved and divided by the ranks, must be within 2 % of PETSc's. Its solution must still converge
(its own "Norm of error" line) and its exit code be 0.
"""
import json
import os
import re
import subprocess
import sys

import checks


def main(hetscale, ex2, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "ex2.json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--", ex2,
                          "-m", "200", "-n", "200", "-log_view"], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        print(f"ex2 failed under hetscale measure ({run.returncode}): {run.stderr[-500:]}", file=sys.stderr)
        return 1
    problems = []
    if not re.search(r"Norm of error [0-9.e+-]+ iterations \d+", run.stdout):
        problems.append("ex2 printed no 'Norm of error' line")
    petsc = {}
    for key, label in (("messages", "MPI Msg Count:"), ("bytes", r"MPI Msg Len \(bytes\):")):
        match = re.search(label + r"\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", run.stdout)
        if not match:
            problems.append(f"-log_view has no '{label}' line")
            continue
        petsc[key] = float(match.group(4))  # Total, over the ranks (Avg is per rank for the count, per message for the length)
    with open(record) as f:
        data = json.load(f)
    ranks = len(data["nodes"])
    point_to_point = [f for f in data["context"]["mpi_functions"] if f.get("messages", 0) > 0]
    petsc = {key: value / ranks for key, value in petsc.items()}
    ours = {"messages": sum(f["messages"] for f in point_to_point) / 2 / ranks,
            "bytes": sum(f["bytes"] for f in point_to_point) / 2 / ranks}
    for key, value in petsc.items():
        if abs(ours[key] / value - 1.0) > 0.02:
            problems.append(f"{key} per rank: hetscale {ours[key]:.6g}, PETSc's -log_view {value:.6g} (over 2 %)")
        else:
            print(f"{key} per rank: hetscale {ours[key]:.6g}, PETSc's -log_view {value:.6g} "
                  f"({ours[key] / value - 1.0:+.2%})")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
