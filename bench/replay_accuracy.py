#!/usr/bin/env python3
"""Does a replayed trace give what the run gives? Runs measured with
`hetscale measure --trace`, replayed by `hetscale simulate replay`, against
runs measured here.

    replay_accuracy.py [--check] [--runs K] HETSCALE STENCIL HEAT LMP LJ_INPUT [WORK_DIR]

Programs: the 1-D stencil of tests/measure/programs (C), heat.f90 there
(Fortran: the heat equation, MPI_Sendrecv halos) and LAMMPS (Debian's lmp,
the Lennard-Jones melt LJ_INPUT, two ranks side by side along x).
0. This machine described by `hetscale bench comm --platform-out` at 2 and at
   4 ranks: one node of as many cores as it has, each of speed 1, its network
   from the send cost (latency its intercept, bandwidth 8 bytes over its
   cost per double); at 4 ranks, more than the cores, timed with the partners
   asleep between polls (`--timing asleep`: ranks that take turns on the
   cores often find their receiver off a CPU). The 4-rank platforms below
   have the 4-rank network.
1. This machine replayed: each program traced at 2 and 4 ranks, replayed on
   that platform with every rank on its node; goal: t_par within 5 % of the
   traced run's own (from MPI_Init's return to MPI_Finalize, in the trace's
   manifest).
2. A heterogeneous machine predicted: the same equal-speed traces replayed
   on nodes of speeds 1,0.5 (2 ranks), 1,0.5,0.5,0.25 and the same at half
   speed, 0.5,0.25,0.25,0.125 (4 ranks; these ask for no more than this
   machine's 2 cores, the former for 2.25), each rank
   on a node of its own with that network, against runs measured with
   --emulate-speeds at those speeds; goals: t_par within 10 %, and each
   rank's waiting (its time in MPI) within 10 % of t_par.
3. A split replayed: LAMMPS's speed-proportional split (2/3, 1/3 of the box
   along x) replayed from the even split's trace with --shares 2,1
   --traced-shares 1,1 (the split it ran with: the traced work's shares are
   that split only where both CPUs ran alike) on speeds 1,0.5, against
   LAMMPS run with that split (`balance`) emulated at 1,0.5; goal: within
   10 %.
4. Scale: the stencil traced at 64 ranks on this machine, replayed as 16
   copies side by side (--repeat 16: weak scaling) on 1,024 nodes; goal: the
   replay within 60 s. Also the trace's size per rank per 1,000 calls.
K runs of each measurement (1 by default); in sections 2 and 3 each emulated
run is paired with an equal-speed run traced just before it (this machine's
cores change speed for minutes at a time), and the median of the pairs'
errors is judged, with their range. The emulated runs are traced too, and
each is also replayed from its own trace (last column, not judged): what is
left there is the replay's model, not a difference between two runs. Prints
Markdown tables (docs/simulation.md); --check exits 1 when a goal is missed.
"""
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from whatif_emulated import lammps_input  # noqa: E402

LIMIT = 900
# The speeds of section 2; the last, the 4-rank ratios at half speed, asks for
# 1.125 cores where the first 4-rank one asks for 2.25 of this machine's 2.
HETEROGENEOUS = [(2, "1,0.5"), (4, "1,0.5,0.5,0.25"), (4, "0.5,0.25,0.25,0.125")]


def measure(hetscale, work, name, ranks, program, emulate=None):
    """The traced run: its manifest's measured seconds and its run record."""
    trace, record = os.path.join(work, name), os.path.join(work, name + ".json")
    command = ["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "measure", "--trace", trace, "--out", record]
    if emulate:
        command += ["--emulate-speeds", emulate]
    run = subprocess.run(command + ["--"] + program, capture_output=True, text=True, timeout=LIMIT, cwd=work)
    if run.returncode != 0:
        raise SystemExit(f"replay_accuracy: {name} failed ({run.returncode}): {run.stdout.strip()[-400:]} "
                         f"{run.stderr.strip()[-1200:]}")
    with open(os.path.join(trace, "manifest.json")) as f:
        manifest = json.load(f)
    with open(record) as f:
        return trace, manifest["measured_seconds"], json.load(f)


def replay(hetscale, trace, platform, hosts=None, shares=None, traced_shares=None):
    command = [hetscale, "simulate", "replay", trace, "--platform", platform, "--json"]
    if hosts:
        command += ["--hosts", hosts]
    if shares:
        command += ["--shares", shares]
    if traced_shares:
        command += ["--traced-shares", traced_shares]
    run = subprocess.run(command, capture_output=True, text=True, timeout=LIMIT)
    if run.returncode != 0:
        raise SystemExit(f"replay_accuracy: replay of {trace} failed: {run.stderr.strip()[-400:]}")
    return json.loads(run.stdout)


def this_machine(hetscale, work, ranks):
    """This machine as `bench comm --platform-out` describes it at `ranks` ranks: one node of its cores, its
    network from the send cost. Ranks that outnumber the cores take turns on them, and a message then often
    finds its receiver off a CPU: there the costs are timed with the partners asleep between polls."""
    path = os.path.join(work, f"this-machine-{ranks}.json")
    timing = "asleep" if ranks > os.cpu_count() else "back-to-back"
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "bench", "comm", "--timing",
                          timing, "--platform-out", path], capture_output=True, text=True, timeout=LIMIT)
    if run.returncode != 0:
        raise SystemExit(f"replay_accuracy: bench comm failed: {run.stderr.strip()[-400:]}")
    with open(path) as f:
        return path, json.load(f)["network"], timing


def platform_of_speeds(work, base, speeds):
    """Each rank on a node of its own of these speeds, with `base`'s network."""
    with open(base) as f:
        network = json.load(f)["network"]
    path = os.path.join(work, f"speeds-{speeds}.json")
    nodes = [{"name": f"node-{i}", "speed": float(v)} for i, v in enumerate(speeds.split(","))]
    with open(path, "w") as f:
        json.dump({"schema": "hetscale.platform/1", "name": f"speeds {speeds}", "nodes": nodes, "network": network}, f)
    return path


def lammps_split_input(template, work, cut):
    """LAMMPS's input with the ranks side by side along x (any count), the first cut at `cut` when given."""
    path = lammps_input(template, work, cut)
    with open(path) as f:
        text = f.read().replace("processors      2 1 1", "processors      * 1 1")
    with open(path, "w") as f:
        f.write(text)
    return path


def paired_trace(hetscale, work, label, ranks, program):
    """An equal-speed traced run made just before the emulated run it predicts: this machine's cores change
    speed for minutes at a time (one of them sometimes takes 1.4 to 1.7 times as long for the same work: the
    other tenants of the host), so a trace and the run it is compared with are taken in the same phase."""
    trace, _, _ = measure(hetscale, work, label + "-traced", ranks, program)
    return trace


def spread(errors):
    return f"{min(errors):+.1%} .. {max(errors):+.1%}"


def waiting(node):
    return node.get("t_comm", 0.0) + node.get("t_idle", 0.0)


def flops_of(trace, ranks):
    total = []
    for rank in range(ranks):
        with gzip.open(os.path.join(trace, f"rank-{rank}.trace.gz"), "rt") as f:
            total.append(sum(float(line.split()[2]) for line in f if line.split()[1] == "compute"))
    return total


def main(argv):
    check = "--check" in argv
    runs, arguments, i = 1, [], 0
    while i < len(argv):
        if argv[i] == "--runs":
            runs, i = int(argv[i + 1]), i + 2
            continue
        if not argv[i].startswith("--"):
            arguments.append(argv[i])
        i += 1
    if len(arguments) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    hetscale, stencil, heat, lmp, lj = (os.path.abspath(a) if os.sep in a else a for a in arguments[:5])
    work = os.path.abspath(arguments[5]) if len(arguments) > 5 else tempfile.mkdtemp(prefix="replay-accuracy-")
    os.makedirs(work, exist_ok=True)
    machine = {ranks: this_machine(hetscale, work, ranks) for ranks in (2, 4)}
    programs = {
        "stencil (C, 400,000 cells, 300 steps)": [stencil, "--cells", "400000", "--steps", "300"],
        "heat (Fortran, 400,000 cells, 2,000 steps)": [heat, "2000", "400000"],
        "LAMMPS lj-melt (32,000 atoms, 200 steps)": [lmp, "-log", "none", "-in", lammps_split_input(lj, work, None)],
    }
    met = True

    described = "; ".join(f"at {ranks} ranks latency {network['latency_s'] * 1e6:.2f} us and "
                          f"{network['bandwidth_Bps'] / 1e9:.2f} GB/s, timed {timing}"
                          for ranks, (_, network, timing) in machine.items())
    print(f"\n## This machine replayed ({runs} run{'s' if runs > 1 else ''} each; every rank on one node of "
          f"{os.cpu_count()} cores, its network from bench comm {described})\n")
    print("| program | ranks | traced run (s) | replayed (s) | error | goal |")
    print("|---|---|---|---|---|---|")
    for name, program in programs.items():
        for ranks in (2, 4):
            measured, replayed = [], []
            for k in range(runs):
                trace, seconds, _ = measure(hetscale, work, f"{name.split()[0]}-{ranks}-{k}", ranks, program)
                measured.append(seconds)
                replayed.append(replay(hetscale, trace, machine[ranks][0], hosts="1")["t_par"])
            error = statistics.median(replayed) / statistics.median(measured) - 1.0
            ok = abs(error) <= 0.05
            met = met and ok
            print(f"| {name} | {ranks} | {statistics.median(measured):.3f} | {statistics.median(replayed):.3f} | "
                  f"{error:+.1%} | within 5 %: {'met' if ok else 'missed'} |")

    print("\n## A heterogeneous machine predicted: equal-speed traces replayed on nodes of other speeds, against "
          "runs emulated at those speeds\n")
    print("| program | speeds | emulated run (s) | replayed (s) | error | largest waiting difference / t_par | goal | "
          "the emulated run's own trace replayed |")
    print("|---|---|---|---|---|---|---|---|")
    for name, program in programs.items():
        for ranks, speeds in HETEROGENEOUS:
            nodes = platform_of_speeds(work, machine[ranks][0], speeds)
            measured, replayed, errors, differences, own = [], [], [], [], []
            for k in range(runs):
                label = f"{name.split()[0]}-{ranks}-{speeds.replace(',', '_')}-{k}"
                trace = paired_trace(hetscale, work, label, ranks, program)
                emulated, seconds, record = measure(hetscale, work, label + "-emulated", ranks, program,
                                                    emulate=speeds)
                predicted = replay(hetscale, trace, nodes)
                own.append(replay(hetscale, emulated, nodes)["t_par"] / seconds - 1.0)
                measured.append(seconds)
                replayed.append(predicted["t_par"])
                errors.append(predicted["t_par"] / seconds - 1.0)
                differences.append(max(abs(waiting(a) - waiting(b)) for a, b in zip(record["nodes"],
                                                                                    predicted["nodes"])) / seconds)
            error = statistics.median(errors)
            difference = statistics.median(differences)
            ok = abs(error) <= 0.10 and difference <= 0.10
            met = met and ok
            print(f"| {name} | {speeds} | {statistics.median(measured):.3f} | {statistics.median(replayed):.3f} | "
                  f"{error:+.1%} ({spread(errors)}) | {difference:.1%} | within 10 %: {'met' if ok else 'missed'} | "
                  f"{statistics.median(own):+.1%} ({spread(own)}) |")

    print("\n## A split replayed: LAMMPS's speed-proportional split on speeds 1,0.5\n")
    print("| traced split | shares replayed | replayed (s) | measured with that split, emulated (s) | error | goal |")
    print("|---|---|---|---|---|---|")
    name = "LAMMPS lj-melt (32,000 atoms, 200 steps)"
    nodes = platform_of_speeds(work, machine[2][0], "1,0.5")
    proposed = [lmp, "-log", "none", "-in", lammps_split_input(lj, work, "0.6667")]
    measured, replayed, errors, shares = [], [], [], []
    for k in range(runs):
        trace = paired_trace(hetscale, work, f"LAMMPS-split-{k}", 2, programs[name])
        _, seconds, _ = measure(hetscale, work, f"LAMMPS-split-{k}-emulated", 2, proposed, emulate="1,0.5")
        measured.append(seconds)
        replayed.append(replay(hetscale, trace, nodes, shares="2,1", traced_shares="1,1")["t_par"])
        errors.append(replayed[-1] / seconds - 1.0)
        work_of = flops_of(trace, 2)
        shares.append(work_of[0] / sum(work_of))
    error = statistics.median(errors)
    ok = abs(error) <= 0.10
    met = met and ok
    print(f"| even (its work {min(shares):.3f} to {max(shares):.3f} on the first rank) | 2/3, 1/3 | "
          f"{statistics.median(replayed):.3f} | {statistics.median(measured):.3f} | {error:+.1%} ({spread(errors)}) | "
          f"within 10 %: {'met' if ok else 'missed'} |")

    print("\n## Scale: a 64-rank trace replayed on 1,024 nodes (16 copies side by side)\n")
    print("| trace | actions per rank | gzip bytes per rank per 1,000 actions | text bytes per 1,000 actions | "
          "replay of 1,024 ranks (s) | goal |")
    print("|---|---|---|---|---|---|")
    trace, _, _ = measure(hetscale, work, "stencil-64", 64, [stencil, "--cells", "640000", "--steps", "100"])
    with open(os.path.join(trace, "manifest.json")) as f:
        manifest = json.load(f)
    actions = sum(manifest["actions"]) / 64
    packed = sum(os.path.getsize(os.path.join(trace, name)) for name in manifest["files"]) / 64
    text = sum(manifest["text_bytes"]) / 64
    nodes = os.path.join(work, "nodes-1024.json")
    with open(nodes, "w") as f:
        json.dump({"schema": "hetscale.platform/1", "name": "1,024 nodes",
                   "nodes": [{"name": "node", "speed": 1.0, "count": 1024}], "network": machine[2][1]}, f)
    started = time.monotonic()
    run = subprocess.run([hetscale, "simulate", "replay", trace, "--platform", nodes, "--repeat", "16", "--json"],
                         capture_output=True, text=True, timeout=LIMIT)
    seconds = time.monotonic() - started
    ok = run.returncode == 0 and seconds <= 60.0
    met = met and ok
    print(f"| stencil, 64 ranks, 100 steps | {actions:.0f} | {packed / actions * 1000:.0f} | "
          f"{text / actions * 1000:.0f} | {seconds:.1f}{'' if run.returncode == 0 else ' (failed)'} | "
          f"within 60 s: {'met' if ok else 'missed'} |")
    print()
    return 1 if check and not met else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
