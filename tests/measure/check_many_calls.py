#!/usr/bin/env python3
"""`hetscale measure` sees MPI functions of every kind it wraps (programs/many_calls.c).

    check_many_calls.py HETSCALE PROGRAM FORTRAN_PROGRAM BYTES_PROGRAM WORK_DIR

On 2 ranks the record's MPI profile must name each function the program
calls, with its calls over both ranks and its bytes (4 per int): what the
rank sends plus what it receives, where the call's counts and datatypes give
them (a v collective's arrays of counts summed over the peers, or over the
topology's neighbours; a persistent request's at each start); MPI-IO's time
must all be t_comm. The same for the Fortran bindings of two v collectives
and of MPI-IO, whose file name has a hidden length (programs/many_calls.f90),
and the exact bytes of every call with a rule of its own: all-to-all,
all-gather, gather, scatter, their v and w forms, persistent starts and the
one-sided calls that fetch (programs/bytes_moved.c).
"""
import json
import os
import subprocess
import sys

import checks

EXPECTED = {  # function: (calls over 2 ranks, bytes or None when not counted)
    # a ring of 2: 1 int to each of the 2 out-neighbours, 1 from each of the 2 in-neighbours
    "MPI_Cart_create": (2, None), "MPI_Neighbor_allgather": (2, 32), "MPI_Iscan": (2, 8), "MPI_Wait": (2, None),
    # persistent: a send and a receive of 1 int, started twice a rank
    "MPI_Send_init": (2, 0), "MPI_Recv_init": (2, 0), "MPI_Startall": (4, 32), "MPI_Waitall": (4, None),
    "MPI_Request_free": (4, None), "MPI_Send": (2, 8), "MPI_Mprobe": (2, None), "MPI_Mrecv": (2, 8),
    "MPI_Comm_dup_with_info": (2, None), "MPI_Comm_free": (4, None),
    # arrays of counts: 1 int to and 1 from each of the 2 peers or of the ring's 2 neighbours;
    # a reduce-scatter's counts are the whole vector reduced (2 ints)
    "MPI_Alltoallv": (2, 32), "MPI_Neighbor_alltoallv": (2, 32), "MPI_Reduce_scatter": (2, 16),
    # MPI-IO: 1,000 ints a rank
    "MPI_File_open": (2, None), "MPI_File_write_at_all": (2, 8000), "MPI_File_sync": (2, None),
    "MPI_File_read_at_all": (2, 8000), "MPI_File_close": (2, None),
}
EXPECTED_FORTRAN = {"MPI_Alltoallv": (2, 32), "MPI_Reduce_scatter": (2, 16), "MPI_File_open": (2, None),
                    "MPI_File_write_at": (2, 8), "MPI_File_close": (2, None)}
# programs/bytes_moved.c: what a rank sends plus receives, over all its peers (2 ranks, 4-byte ints)
EXPECTED_BYTES = {
    "MPI_Alltoall": (2, 32),     # 1 int to and from each of 2 peers: 16 a rank
    "MPI_Allgather": (2, 24),    # 1 int sent, 1 from each of 2 peers: 12 a rank
    "MPI_Gather": (2, 16),       # the root sends 4 and receives 8, the other sends 4
    "MPI_Scatter": (2, 16),      # the root sends 8 and receives 4, the other receives 4
    "MPI_Gatherv": (2, 16),      # as MPI_Gather
    "MPI_Alltoallw": (2, 32),    # as MPI_Alltoall
    "MPI_Send_init": (2, 0), "MPI_Recv_init": (2, 0),
    "MPI_Start": (8, 64),        # 2 ints a request, 4 starts a rank
    "MPI_Get_accumulate": (2, 32),    # 2 ints sent, 2 fetched
    "MPI_Fetch_and_op": (2, 16),      # 1 sent, 1 fetched
    "MPI_Compare_and_swap": (2, 24),  # 2 sent (origin, compare), 1 fetched
}
IO = ("MPI_File_write_at_all", "MPI_File_sync", "MPI_File_read_at_all")


def profile_problems(hetscale, program, record, expected):
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--",
                          program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
                         cwd=os.path.dirname(record))
    if run.returncode != 0 or run.stdout.count(": rank") != 2:
        return [f"measure of {program} failed ({run.returncode}): {run.stdout}{run.stderr}"]
    with open(record) as f:
        measured = json.load(f)
    profile = {entry["function"]: entry for entry in measured["context"]["mpi_functions"]}
    problems = []
    # MPI-IO's time is t_comm, all of it.
    io_seconds = sum(profile[name]["seconds"] for name in IO if name in profile)
    comm_seconds = sum(node["t_comm"] for node in measured["nodes"])
    if comm_seconds < io_seconds * (1 - 1e-9):
        problems.append(f"{program}: t_comm {comm_seconds} s over the ranks is less than MPI-IO's {io_seconds} s")
    for function, (calls, bytes_moved) in expected.items():
        entry = profile.get(function)
        if entry is None:
            problems.append(f"{program}: {function} is not in the record's profile")
        elif entry["calls"] != calls or (bytes_moved is not None and entry["bytes"] != bytes_moved):
            problems.append(f"{program}: {function}: {entry['calls']} calls, {entry['bytes']} bytes; "
                            f"expected {calls} calls{'' if bytes_moved is None else f', {bytes_moved} bytes'}")
    return problems


def main(hetscale, program, fortran, bytes_program, work):
    os.makedirs(work, exist_ok=True)
    problems = profile_problems(hetscale, program, os.path.join(work, "many_calls.json"), EXPECTED)
    problems += profile_problems(hetscale, fortran, os.path.join(work, "many_calls_fortran.json"), EXPECTED_FORTRAN)
    problems += profile_problems(hetscale, bytes_program, os.path.join(work, "bytes_moved.json"), EXPECTED_BYTES)
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 5)
