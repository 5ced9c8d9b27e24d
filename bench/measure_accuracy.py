#!/usr/bin/env python3
"""How right `hetscale measure` is where heterogeneity lives: shared cores, a
busy neighbour, threads, emulated speeds.

    measure_accuracy.py [--check] [--quick] [--short-calls=PROGRAM] HETSCALE STENCIL [WORK_DIR]

STENCIL is tests/measure/programs/stencil.c (built as build/tests/stencil):
each rank times its own computation with its threads' CPU clocks and prints
the largest. Over a matrix of 1, 2, 4 and 8 ranks on this machine; quiet,
beside one and beside two foreign busy loops; speeds as they are and emulated
at 1,0.5 and 1,0.25 (alternating over the ranks); one thread, two threads in
MPI at once (MPI_THREAD_MULTIPLE) and an OpenMP loop of two threads, each
cell one measured run of an even split, and in each cell:
  - each rank's t_comp within 5 % of its own CPU time divided by its
    emulated speed;
  - the parts add up: every rank's parts at most t_par (1 %), and the
    longest rank's equal to it (1 %);
  - `hetscale analyze` reads the record, and says first that cores were
    shared when the ranks' threads outnumber this machine's CPUs;
  - the verdict on the split is right: an even split on equal speeds is
    never said not to follow the speeds, and under emulated unequal speeds
    it is.
Prints one line a cell and a summary; --check exits 1 when a cell misses.
With --short-calls=PROGRAM (tests/measure/programs/short_calls.c), also
cells of a program whose MPI calls are short and back to back (most only
counted, not timed: docs/measure.md, "Runs of short calls"), with one rank
late once by 0.2 s inside such a run: 2, 4 and 8 ranks (a tenth of the
calls at 4 and 8), quiet and beside one and two busy loops; each rank's
t_comp within 5 % of its own, give or take the time its record says it
could not split (unsplit), and rank 0's wait for the late rank MPI time.
--quick runs the corners of the matrix only; --test runs 4 ranks with each
kind of threads, as is and emulated at 1,0.5, with a 10 % tolerance and no
verdict (the test suite's measure_accuracy: it must hold on a busy machine).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

RANKS = (1, 2, 4, 8)
LOADS = (0, 1, 2)
SPEEDS = ("", "1,0.5", "1,0.25")
THREADS = ("single", "multiple", "openmp")
TOLERANCE = 0.05


def speeds_for(pattern, ranks):
    if not pattern:
        return None
    values = pattern.split(",")
    return [float(values[r % len(values)]) for r in range(ranks)]


def measured(command, load, record):
    """Runs a measured command beside `load` busy loops: its stdout, or a problem."""
    # An idle OpenMP pool that spins is computing as far as any clock can tell
    # (TALP without OMPT counts it so too): the pool sleeps when idle here.
    environment = dict(os.environ, OMP_NUM_THREADS="2", OMP_WAIT_POLICY="passive")
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(load)]
    try:
        run = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=600)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    if run.returncode != 0:
        return None, f"exit {run.returncode}: {run.stderr.strip()[-300:]}"
    if not os.path.exists(record):
        return None, f"no record written: {run.stderr.strip()[-300:]}"
    return run.stdout, None


def check_parts(data, problems):
    """Every rank's parts at most t_par, the longest rank's equal to it (1 %)."""
    t_par = data["t_par"]
    longest = 0.0
    for r, node in enumerate(data["nodes"]):
        parts = sum(node.get(k, 0.0) for k in ("t_comp", "t_comm", "t_setup", "t_idle", "t_other", "t_blocked"))
        longest = max(longest, parts)
        if parts > t_par * 1.01:
            problems.append(f"rank {r}: parts {parts:.4f} s exceed t_par {t_par:.4f} s")
    if abs(longest / t_par - 1.0) > 0.01:
        problems.append(f"the longest rank's parts {longest:.4f} s are not t_par {t_par:.4f} s")


def run_short_calls_cell(hetscale, program, work, ranks, load):
    name = f"short-calls-{ranks}r-load{load}"
    record = os.path.join(work, name + ".json")
    command = ["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "measure", "--out", record, "--", program]
    if ranks > 2:
        command.append("--fewer")
    stdout, failed = measured(command, load, record)
    if failed:
        return name, [failed], None
    own = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"rank (\d+) computed (\S+) s", stdout)}
    data = json.load(open(record))
    short = data["context"].get("short_calls")
    unsplit = short["unsplit_seconds"] if short else [0.0] * ranks
    problems, worst = [], 0.0
    for r, node in enumerate(data["nodes"]):
        error = node["t_comp"] / own[r] - 1.0
        worst = max(worst, abs(error))
        if abs(node["t_comp"] - own[r]) > TOLERANCE * own[r] + unsplit[r]:
            problems.append(f"rank {r}: t_comp {node['t_comp']:.4f} s against its own {own[r]:.4f} s "
                            f"({error:+.1%}; unsplit {unsplit[r]:.4f} s)")
    waited = data["nodes"][0]["t_idle"] + data["nodes"][0]["t_comm"]
    if waited < 0.15:
        problems.append(f"rank 0's MPI time {waited:.4f} s, less than the 0.2 s it waited for rank 1")
    check_parts(data, problems)
    return name, problems, worst


def run_cell(hetscale, stencil, work, ranks, load, speeds, threads, verdict=True):
    name = f"{ranks}r-load{load}-{speeds or 'asis'}-{threads}".replace(",", "_")
    record = os.path.join(work, name + ".json")
    v = speeds_for(speeds, ranks)
    command = ["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "measure", "--out", record]
    if v and ranks > 1:
        command += ["--emulate-speeds", ",".join(f"{x:g}" for x in v)]
    elif v:
        command += ["--emulate-speeds", f"{v[0]:g}"]
    command += ["--", stencil, "--steps", "20", "--cells", str(1000000 * ranks), "--threads", threads]
    stdout, failed = measured(command, load, record)
    if failed:
        return name, [failed], None
    problems = []
    own = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"stencil rank (\d+) cpu (\S+)", stdout)}
    data = json.load(open(record))
    worst = 0.0
    for r, node in enumerate(data["nodes"]):
        speed = v[r] if v and ranks > 1 else (v[0] if v else 1.0)
        expected = own[r] / speed
        error = node["t_comp"] / expected - 1.0
        worst = max(worst, abs(error))
        if abs(error) > TOLERANCE:
            problems.append(f"rank {r}: t_comp {node['t_comp']:.4f} s against its own {expected:.4f} s "
                            f"({error:+.1%})")
    check_parts(data, problems)
    analysis = subprocess.run([hetscale, "analyze", record], capture_output=True, text=True)
    if analysis.returncode != 0:
        problems.append(f"analyze refused the record: {analysis.stderr.strip()}")
    threads_per_rank = 1 if threads == "single" else 2
    if ranks * threads_per_rank > (os.cpu_count() or 1) and "caution: cores were shared" not in analysis.stdout:
        problems.append(f"{ranks} ranks of {threads_per_rank} threads on {os.cpu_count()} CPUs, and analyze does not "
                        "say cores were shared")
    blamed = "does not follow the node speeds" in analysis.stdout
    unequal = bool(v) and ranks > 1 and len(set(v)) > 1
    if verdict and blamed != unequal:
        problems.append("the split was " + ("blamed although the speeds are equal" if blamed else
                                           "not blamed although the emulated speeds are unequal"))
    return name, problems, worst


def main(argv):
    check = "--check" in argv
    quick = "--quick" in argv
    test = "--test" in argv
    global TOLERANCE
    if test:
        TOLERANCE = 0.10
    short_calls = next((a.split("=", 1)[1] for a in argv if a.startswith("--short-calls=")), None)
    arguments = [a for a in argv if not a.startswith("--")]
    if len(arguments) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    hetscale, stencil = arguments[0], arguments[1]
    work = arguments[2] if len(arguments) > 2 else tempfile.mkdtemp(prefix="measure-accuracy-")
    os.makedirs(work, exist_ok=True)
    cells = [(n, load, speeds, threads) for n in RANKS for load in LOADS for speeds in SPEEDS for threads in THREADS]
    if quick:
        cells = [(n, load, speeds, threads) for (n, load, speeds, threads) in cells
                 if n in (2, 8) and load in (0, 2) and speeds in ("", "1,0.5")]
    if test:
        cells = [(4, 0, speeds, threads) for speeds in ("", "1,0.5") for threads in THREADS]
    runs = [lambda cell=cell: run_cell(hetscale, stencil, work, *cell, verdict=not test) for cell in cells]
    if short_calls:
        runs += [lambda n=n, load=load: run_short_calls_cell(hetscale, short_calls, work, n, load)
                 for n in (2, 4, 8) for load in LOADS]
    missed = 0
    worst_all = 0.0
    print(f"{'cell':32} {'worst |t_comp/own - 1|':>22}  verdict")
    for run in runs:
        name, problems, worst = run()
        if worst is not None:
            worst_all = max(worst_all, worst)
        missed += bool(problems)
        status = "ok" if not problems else "MISSED: " + "; ".join(problems)
        print(f"{name:32} {'-' if worst is None else f'{worst:.2%}':>22}  {status}", flush=True)
    print(f"{len(runs) - missed} of {len(runs)} cells met (each rank's t_comp within {TOLERANCE:.0%} of its own "
          f"CPU time / speed, parts adding up, the record read, the verdict right); the worst t_comp error "
          f"{worst_all:.2%}")
    if check and missed:
        print(f"missed in {missed} cells", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
