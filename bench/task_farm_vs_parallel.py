#!/usr/bin/env python3
"""The task farm on real work, side by side with GNU parallel.

  task_farm_vs_parallel.py --hetscale H --at-speed A --mpiexec M [--flags "F1;F2"]
                           [--tasks 400] [--repetitions 1] [--work DIR] [--check]

400 tasks of unequal real cost (xz -6 of generated text files of sizes drawn
log-uniformly from 16 KiB to 1.5 MiB, in a seeded random order) on 8 clients
of emulated speeds (a client sleeps after each task until its CPU time / v
has passed since it began):

- hetscale farm --tasks (adaptive+, 9 ranks: the server and 8 clients);
- GNU parallel -j 8 on the same tasks, job slot K emulated at v_K (at_speed);
- the earliest-finish ceiling: the tasks in list order, each to the client
  that would finish it first, with the CPU times the farm's job log measured
  (what a dispatcher that knew every task's cost beforehand would reach);
- the farm's job log replayed on a simulated platform of the same speeds
  (hetscale simulate farm --tasks-from): does the replay predict the makespan?

Makespans are read from each tool's own log: the first task's start to the
last task's end; each is set against the ceiling of the CPU times measured in
the same run (the farm's job log; at_speed --record for GNU parallel). Printed as ratios measured in one run; with --check, exit 1
unless the farm is within 5 % of the ceiling, ahead of GNU parallel, and
the replay within 5 % of the measured makespan (medians of the repetitions).
"""
import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SPEEDS = [0.5, 0.25, 0.25, 0.125, 0.125, 0.125, 0.0625, 0.0625]


def make_inputs(folder, tasks, seed=20):
    """Text files of log-uniform sizes (compressible, as logs and tables are) and the task list."""
    generator = random.Random(seed)
    os.makedirs(os.path.join(folder, "in"), exist_ok=True)
    os.makedirs(os.path.join(folder, "out"), exist_ok=True)
    words = ["node", "speed", "task", "farm", "rank", "time", "idle", "work", "load", "host"]
    commands = []
    for task in range(tasks):
        size = int(math.exp(generator.uniform(math.log(16 * 1024), math.log(1536 * 1024))))
        lines, length = [], 0
        while length < size:
            line = f"{generator.randrange(10**9)} {generator.choice(words)} {generator.random():.6f}\n"
            lines.append(line)
            length += len(line)
        with open(os.path.join(folder, "in", f"{task}.txt"), "w") as f:
            f.write("".join(lines))
        commands.append(f"xz -6 -T1 -c in/{task}.txt > out/{task}.xz")
    with open(os.path.join(folder, "tasks.txt"), "w") as f:
        f.write("\n".join(commands) + "\n")
    return commands


def farm_makespan(args, folder):
    log = os.path.join(folder, "farm.jsonl")
    command = [args.mpiexec, "-np", str(len(SPEEDS) + 1)] + [f for f in args.flags.split(";") if f] + [
        args.hetscale, "farm", "--tasks", "tasks.txt", "--policy", "adaptive+",
        "--speeds", ",".join(str(v) for v in SPEEDS), "--results", log, "--out", "farm.json"]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"hetscale farm failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    ends = [json.loads(line) for line in open(log) if '"event":"end"' in line]
    makespan = max(e["end"] for e in ends) - min(e["start"] for e in ends)
    costs = [0.0] * len(ends)
    for e in ends:
        costs[e["task"]] = e["cpu_s"]
    return makespan, costs


def replayed_makespan(args, folder):
    """The farm's job log replayed on a simulated platform of the same speeds (hetscale simulate farm --tasks-from)."""
    platform = os.path.join(folder, "emulated.json")
    nodes = [{"name": "server", "speed": 1.0}] + [{"name": f"client-{i + 1}", "speed": v} for i, v in enumerate(SPEEDS)]
    with open(platform, "w") as f:
        json.dump({"schema": "hetscale.platform/1", "name": "emulated clients", "nodes": nodes,
                   "network": {"latency_s": "10us", "bandwidth_Bps": "1GBps"}}, f)
    result = subprocess.run([args.hetscale, "simulate", "farm", "--platform", platform, "--tasks-from",
                             os.path.join(folder, "farm.jsonl"), "--json"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"hetscale simulate farm --tasks-from failed ({result.returncode}):\n{result.stderr}")
    return json.loads(result.stdout)["t_par"]


def parallel_makespan(args, folder, commands):
    """GNU parallel's makespan, and the CPU time of each task in list order (at_speed --record)."""
    log, cpu_log = os.path.join(folder, "parallel.log"), os.path.join(folder, "parallel-cpu.tsv")
    for stale in (log, cpu_log):
        if os.path.exists(stale):
            os.remove(stale)
    command = ["parallel", "-j", str(len(SPEEDS)), "--joblog", log, args.at_speed, "--speeds",
               ",".join(str(v) for v in SPEEDS), "--slot", "{%}", "--record", cpu_log, "{}", "::::", "tasks.txt"]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"GNU parallel failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    starts, ends = [], []
    with open(log) as f:
        next(f)  # Seq Host Starttime JobRuntime Send Receive Exitval Signal Command
        for line in f:
            fields = line.split("\t")
            starts.append(float(fields[2]))
            ends.append(float(fields[2]) + float(fields[3]))
    index = {command: task for task, command in enumerate(commands)}
    costs = [0.0] * len(commands)
    with open(cpu_log) as f:
        for line in f:
            cpu, command = line.rstrip("\n").split("\t", 1)
            costs[index[command]] = float(cpu)
    return max(ends) - min(starts), costs


def earliest_finish_ceiling(costs, speeds):
    """The tasks in list order, each to the client that would finish it first."""
    free = [0.0] * len(speeds)
    for cost in costs:
        client = min(range(len(speeds)), key=lambda c: free[c] + cost / speeds[c])
        free[client] += cost / speeds[client]
    return max(free)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hetscale", required=True)
    parser.add_argument("--at-speed", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--tasks", type=int, default=400)
    parser.add_argument("--repetitions", type=int, default=1)
    parser.add_argument("--work", help="keep the inputs, outputs and logs here (default: a temporary folder)")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    args.hetscale, args.at_speed = os.path.abspath(args.hetscale), os.path.abspath(args.at_speed)
    if shutil.which("parallel") is None:
        sys.exit("GNU parallel is not installed (scripts/install-deps installs Debian's parallel)")
    folder = args.work or tempfile.mkdtemp(prefix="hetscale-tasks-vs-parallel-")
    os.makedirs(folder, exist_ok=True)
    started = time.monotonic()
    commands = make_inputs(folder, args.tasks)
    farm, parallel, ceiling, parallel_ceiling, replayed = [], [], [], [], []
    for _ in range(args.repetitions):  # alternated, so a busy spell hits both
        makespan, costs = farm_makespan(args, folder)
        farm.append(makespan)
        ceiling.append(earliest_finish_ceiling(costs, SPEEDS))
        replayed.append(replayed_makespan(args, folder))
        makespan, costs_seen = parallel_makespan(args, folder, commands)
        parallel.append(makespan)
        parallel_ceiling.append(earliest_finish_ceiling(costs_seen, SPEEDS))
    total_cpu = sum(costs)
    print(f"task_farm_vs_parallel: {args.tasks} tasks (xz -6 of 16 KiB - 1.5 MiB of text, "
          f"{total_cpu:.1f} s of CPU in the last farm run) on {len(SPEEDS)} clients of emulated speeds "
          f"{','.join(str(v) for v in SPEEDS)}; makespans, first start to last end")
    # Each repetition's ratios, then their medians. Each tool's makespan is set
    # against the ceiling of the CPU times measured in its own run: this
    # machine's speed drifts between runs (the same tasks took 62 to 103 s of
    # CPU in different runs), and a ceiling of the same run takes that out.
    print("| repetition | farm (s) | its ceiling (s) | farm / ceiling | GNU parallel (s) | its ceiling (s) | "
          "parallel / ceiling | (parallel / ceiling) / (farm / ceiling) | farm replayed (s) | replayed / farm |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for i, (f_i, c_i, p_i, pc_i, r_i) in enumerate(zip(farm, ceiling, parallel, parallel_ceiling, replayed)):
        print(f"| {i + 1} | {f_i:.2f} | {c_i:.2f} | {f_i / c_i:.3f} | {p_i:.2f} | {pc_i:.2f} | {p_i / pc_i:.3f} | "
              f"{(p_i / pc_i) / (f_i / c_i):.3f} | {r_i:.2f} | {r_i / f_i:.3f} |")
    f = statistics.median(x / c for x, c in zip(farm, ceiling))
    p = statistics.median(x / c for x, c in zip(parallel, parallel_ceiling))
    ahead = statistics.median((y / d) / (x / c) for x, c, y, d in zip(farm, ceiling, parallel, parallel_ceiling))
    replay = statistics.median(r / x for x, r in zip(farm, replayed))
    print(f"| median | | | {f:.3f} | | | {p:.3f} | {ahead:.3f} | | {replay:.3f} |")
    print("replayed: the farm's job log (each task's time x its client's speed) on a simulated platform of the same "
          "speeds, hetscale simulate farm --tasks-from")
    print(f"{time.monotonic() - started:.0f} s in all")
    if not args.work:
        shutil.rmtree(folder, ignore_errors=True)
    if args.check:
        problems = []
        if f > 1.05:
            problems.append(f"the farm's makespan is {f:.3f} of the ceiling, not within 5 %")
        if ahead <= 1.0:
            problems.append(f"GNU parallel's makespan over its ceiling is {ahead:.3f} of the farm's: not behind it")
        if abs(replay - 1.0) > 0.05:
            problems.append(f"the replay's makespan is {replay:.3f} of the measured one, not within 5 %")
        for problem in problems:
            print(f"CHECK FAILED: {problem}")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
