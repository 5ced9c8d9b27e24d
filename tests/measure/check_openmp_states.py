#!/usr/bin/env python3
"""POP's OpenMP states measured through OMPT, against a program whose values
are known by construction (tests/measure/programs/openmp_known.c: 2 ranks x
2 threads, a serial part of 0.2 s, a region of 1:2 imbalance and a balanced
one, every amount on the computing thread's own CPU clock).

    check_openmp_states.py HETSCALE KNOWN_GCC KNOWN_CLANG WORK_DIR

KNOWN_GCC is built with GCC (libgomp: measured with --openmp, on LLVM's
runtime), KNOWN_CLANG with clang (LLVM's runtime, measured as is; "-" when
clang was not found). For each: every rank's serialization efficiency, load
balance and their product from the record's openmp part within 0.03 of those
of the useful, serialization and imbalance times the program prints (with
the MPI time measured: the ranks' waits for each other); its team 2; without --openmp the GCC program's
record has no openmp part (libgomp has no tool interface).
"""
import json
import os
import re
import subprocess
import sys

import checks

TOLERANCE = 0.03


def measure(hetscale, program, record, openmp):
    environment = dict(os.environ, OMP_NUM_THREADS="2")
    command = ["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record]
    run = subprocess.run(command + (["--openmp"] if openmp else []) + ["--", program], capture_output=True,
                         text=True, env=environment, timeout=300)
    if run.returncode != 0:
        raise SystemExit(f"{program} failed ({run.returncode}): {run.stderr[-800:]}")
    known = re.search(r"per rank: useful (\S+) s, serialization (\S+) s, imbalance (\S+) s", run.stdout)
    if not known:
        raise SystemExit(f"{program} did not print its known values: {run.stdout[-400:]}")
    with open(record) as f:
        return [float(value) for value in known.groups()], json.load(f), run.stderr


def factors(useful, mpi, serialization, imbalance, scheduling):
    """POP's OpenMP factors as DLB TALP computes them (model::openmp_factors): serialization efficiency, load
    balance, their product (with scheduling: the OpenMP parallel efficiency)."""
    base = useful + mpi
    return [base / (base + serialization),
            (base + serialization) / (base + serialization + imbalance),
            base / (base + serialization + imbalance + scheduling)]


def main(hetscale, known_gcc, known_clang, work):
    os.makedirs(work, exist_ok=True)
    problems = []
    builds = [("GCC, --openmp", known_gcc, True)] + ([("clang", known_clang, False)] if known_clang != "-" else [])
    for label, program, openmp in builds:
        (known_useful, known_serialization, known_imbalance), record, said = measure(hetscale, program, os.path.join(work, label.split(",")[0] + ".json"), openmp)
        if openmp and "LLVM's OpenMP runtime" not in said:
            problems.append(f"{label}: --openmp did not say which runtime it preloaded")
        measured = record["context"].get("openmp")
        if not measured:
            problems.append(f"{label}: the record has no openmp part")
            continue
        for rank in range(2):
            if measured["team"][rank] != 2:
                problems.append(f"{label}: rank {rank}'s team {measured['team'][rank]}, not 2")
            got = factors(*(measured[key][rank] for key in ("useful", "mpi", "serialization", "imbalance",
                                                             "scheduling")))
            # The program knows its computation; its MPI time (the ranks' waits for each other) is measured.
            known = factors(known_useful, measured["mpi"][rank], known_serialization, known_imbalance, 0.0)
            for name, value, wanted in zip(("serialization efficiency", "load balance", "their product"), got, known):
                if abs(value - wanted) > TOLERANCE:
                    problems.append(f"{label}: rank {rank}'s {name} {value:.4f}, known {wanted:.4f}")
            print(f"{label} rank {rank}: " + ", ".join(f"{v:.4f} (known {k:.4f})" for v, k in zip(got, known)))
    _, plain, _ = measure(hetscale, known_gcc, os.path.join(work, "gcc-libgomp.json"), False)
    if "openmp" in plain["context"]:
        problems.append("GCC without --openmp: the record has an openmp part, but libgomp has no tool interface")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 4)
