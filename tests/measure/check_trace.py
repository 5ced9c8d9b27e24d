#!/usr/bin/env python3
"""`hetscale measure --trace` on real MPI programs, replayed by SimGrid.

    check_trace.py HETSCALE STENCIL KNOWN_WAIT_FORTRAN TRACE_PATTERNS PLATFORM WORK_DIR

What must hold on any machine, loaded or not:
- the programs keep their output and exit code; each trace folder has its
  manifest (hetscale.trace/1, one gzip file per rank, the speeds) and every
  rank's file is read by `hetscale simulate replay`, which SimGrid replays
  without a deadlock or a truncated message;
- the computation a trace holds is the program's own: the stencil's ranks
  (4 on this machine's 2 cores) print their thread CPU time around their
  computation, and the trace's compute flops / 1e9 are within 5 % of it (and
  not less); the Fortran program's rank r computes (r + 1) x 0.5 s of CPU
  time by its own clock, through the Fortran bindings;
- the replay of the trace on PLATFORM (one node of two cores, --hosts 1) is
  work-conserving: t_par at least the ranks' computation over the cores;
  `hetscale analyze` reads the replayed run record;
- the MPI patterns of TRACE_PATTERNS (any source with MPI_Waitany and
  MPI_Testsome, MPI_Sendrecv, persistent requests, a collective on half the
  ranks and on ranks in another order, MPI_Gatherv) leave no receive
  written as from any source and replay;
- with emulated speeds, computation is counted at this machine's speed (the
  hold-back is not work): the slow rank's flops stay those of the fast one.
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

import checks

LIMIT = 200


def measure(hetscale, ranks, folder, program, *options):
    if os.path.exists(folder):
        shutil.rmtree(folder)
    command = ["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "measure", "--trace", folder, *options,
               "--", *program]
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=LIMIT)


def trace_lines(folder, rank):
    with gzip.open(os.path.join(folder, f"rank-{rank}.trace.gz"), "rt") as f:
        return [line.split() for line in f]


def flops(lines):
    return sum(float(words[2]) for words in lines if words[1] == "compute")


def replay(hetscale, folder, platform, out, hosts="1"):
    return subprocess.run([hetscale, "simulate", "replay", folder, "--platform", platform, "--hosts", hosts, "--out",
                           out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=LIMIT)


def check_replays(hetscale, folder, platform, out, problems, label):
    """The trace in `folder` replays on `platform` (its record written to `out`)."""
    replayed = replay(hetscale, folder, platform, out)
    if replayed.returncode != 0:
        problems.append(f"{label}: replay exit {replayed.returncode}: {replayed.stderr.strip()}")
    return replayed.returncode == 0


def check_manifest(folder, ranks, problems, label):
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest.get("schema") != "hetscale.trace/1":
        problems.append(f"{label}: manifest schema {manifest.get('schema')}")
    if manifest.get("ranks") != ranks or len(manifest.get("files", [])) != ranks:
        problems.append(f"{label}: manifest says {manifest.get('ranks')} ranks, files {manifest.get('files')}")
    for name in manifest.get("files", []):
        if not os.path.isfile(os.path.join(folder, name)):
            problems.append(f"{label}: {name} is not in {folder}")
    if not manifest.get("measured_seconds", 0) > 0:
        problems.append(f"{label}: no measured_seconds in the manifest")
    return manifest


def main(hetscale, stencil, known_wait, patterns, platform, work):
    os.makedirs(work, exist_ok=True)
    problems = []

    # The stencil, 4 ranks on this machine.
    folder = os.path.join(work, "stencil")
    result = measure(hetscale, 4, folder, [stencil, "--steps", "100", "--cells", "400000"])
    own = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"stencil rank (\d+) cpu ([\d.eE+-]+)",
                                                                  result.stdout)}
    if result.returncode != 0 or len(own) != 4:
        return checks.verdict([f"stencil: exit {result.returncode}, output {result.stdout!r} {result.stderr!r}"])
    manifest = check_manifest(folder, 4, problems, "stencil")
    if manifest.get("speeds") != [1.0] * 4:
        problems.append(f"stencil: speeds {manifest.get('speeds')}, expected 1 for every rank")
    computed = []
    for rank in range(4):
        lines = trace_lines(folder, rank)
        computed.append(flops(lines) / 1e9)
        actions = [words[1] for words in lines]
        if actions[0] != "init" or actions[-1] != "finalize":
            problems.append(f"stencil rank {rank}: trace begins {actions[0]}, ends {actions[-1]}")
        if actions.count("allreduce") != 100:
            problems.append(f"stencil rank {rank}: {actions.count('allreduce')} allreduce, expected 100 (one a step)")
        if not own[rank] <= computed[rank] <= 1.05 * own[rank] + 0.002:
            problems.append(f"stencil rank {rank}: trace computation {computed[rank]:.4f} s, its own CPU time "
                            f"{own[rank]:.4f} s (within 5 %, not less)")
    out = os.path.join(work, "stencil-replayed.json")
    if check_replays(hetscale, folder, platform, out, problems, "stencil"):
        with open(out) as f:
            record = json.load(f)
        if record["t_par"] < 0.999 * sum(computed) / 2:
            problems.append(f"stencil: replayed t_par {record['t_par']:.4f} s < the computation over 2 cores "
                            f"{sum(computed) / 2:.4f} s")
        analyzed = subprocess.run([hetscale, "analyze", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, timeout=LIMIT)
        if analyzed.returncode != 0:
            problems.append(f"stencil: analyze of the replay: {analyzed.stderr.strip()}")

    # The Fortran program: its own CPU clock says (r + 1) x 0.5 s.
    folder = os.path.join(work, "fortran")
    result = measure(hetscale, 2, folder, [known_wait])
    if result.returncode != 0 or "known_wait_fortran: rank 0 of 2" not in result.stdout:
        problems.append(f"fortran: exit {result.returncode}, output {result.stdout!r} {result.stderr!r}")
    else:
        check_manifest(folder, 2, problems, "fortran")
        for rank in range(2):
            lines = trace_lines(folder, rank)
            seconds, expected = flops(lines) / 1e9, (rank + 1) * 0.5
            if not expected <= seconds <= 1.05 * expected:
                problems.append(f"fortran rank {rank}: trace computation {seconds:.4f} s, expected {expected} s")
            if [words[1] for words in lines].count("allreduce") != 5:
                problems.append(f"fortran rank {rank}: expected 5 allreduce in {lines}")
        check_replays(hetscale, folder, platform, os.path.join(work, "fortran-replayed.json"), problems, "fortran")

    # The patterns: nothing left as from any source, and SimGrid replays them.
    folder = os.path.join(work, "patterns")
    result = measure(hetscale, 4, folder, [patterns])
    if result.returncode != 0 or "20 rounds on 4 ranks" not in result.stdout:
        problems.append(f"patterns: exit {result.returncode}, output {result.stdout!r} {result.stderr!r}")
    else:
        check_manifest(folder, 4, problems, "patterns")
        for rank in range(4):
            for words in trace_lines(folder, rank):
                if words[1] in ("irecv", "recv", "wait") and ("-555" in words or "-556" in words):
                    problems.append(f"patterns rank {rank}: {' '.join(words)} (a sender left unknown)")
        check_replays(hetscale, folder, platform, os.path.join(work, "patterns-replayed.json"), problems, "patterns")

    # Emulated speeds: the slow rank's hold-back is not work.
    folder = os.path.join(work, "emulated")
    result = measure(hetscale, 2, folder, [known_wait], "--emulate-speeds", "1,0.5")
    if result.returncode != 0:
        problems.append(f"emulated: exit {result.returncode}: {result.stderr!r}")
    else:
        manifest = check_manifest(folder, 2, problems, "emulated")
        if manifest.get("speeds") != [1.0, 1.0] or manifest.get("emulated_speeds") != [1.0, 0.5]:
            problems.append(f"emulated: speeds {manifest.get('speeds')}, emulated {manifest.get('emulated_speeds')}")
        seconds = flops(trace_lines(folder, 1)) / 1e9
        if not 1.0 <= seconds <= 1.05:
            problems.append(f"emulated rank 1: trace computation {seconds:.4f} s, expected its CPU time 1.0 s")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__.strip().splitlines()[2].strip(), 6)
