#!/usr/bin/env python3
"""`hetscale measure` sees MPI functions of every kind it wraps (programs/many_calls.c).

    check_many_calls.py HETSCALE PROGRAM WORK_DIR

On 2 ranks the record's MPI profile must name each function the program
calls, with its calls over both ranks and, where one count and one datatype
give them, its bytes (4 per int).
"""
import json
import os
import subprocess
import sys

EXPECTED = {  # function: (calls over 2 ranks, bytes or None when not counted)
    "MPI_Cart_create": (2, None), "MPI_Neighbor_allgather": (2, 8), "MPI_Iscan": (2, 8), "MPI_Wait": (2, None),
    "MPI_Send_init": (2, None), "MPI_Recv_init": (2, None), "MPI_Startall": (4, None), "MPI_Waitall": (4, None),
    "MPI_Request_free": (4, None), "MPI_Send": (2, 8), "MPI_Mprobe": (2, None), "MPI_Mrecv": (2, 8),
    "MPI_Comm_dup_with_info": (2, None), "MPI_Comm_free": (4, None),
}


def main(hetscale, program, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "many_calls.json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--",
                          program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    if run.returncode != 0 or run.stdout.count("many_calls: rank") != 2:
        print(f"measure failed ({run.returncode}): {run.stdout}{run.stderr}", file=sys.stderr)
        return 1
    with open(record) as f:
        profile = {entry["function"]: entry for entry in json.load(f)["context"]["mpi_functions"]}
    problems = []
    for function, (calls, bytes_moved) in EXPECTED.items():
        entry = profile.get(function)
        if entry is None:
            problems.append(f"{function} is not in the record's profile")
        elif entry["calls"] != calls or (bytes_moved is not None and entry["bytes"] != bytes_moved):
            problems.append(f"{function}: {entry['calls']} calls, {entry['bytes']} bytes; "
                            f"expected {calls} calls{'' if bytes_moved is None else f', {bytes_moved} bytes'}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    sys.exit(main(*sys.argv[1:]))
