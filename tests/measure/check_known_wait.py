#!/usr/bin/env python3
"""`hetscale measure` on a C program with known answers (programs/known_wait.c).

    check_known_wait.py HETSCALE PROGRAM WORK_DIR [--functions F,...] [--known-only]
                        [--emulate-speeds 1,0.5 --balance 0.625 --wait 1.5] [--platform-speed 0.5]
                        [--comm-profile PROFILE]

--functions: the MPI functions the record must name (default MPI_Init,
MPI_Send, MPI_Recv); --known-only: the known answers alone (the Fortran
program takes no arguments for exit codes or MPI_Abort); --emulate-speeds:
measure with CPU quotas, the known answers then --balance and --wait (rank 1
at half speed computes its 0.2 s of CPU a step in 0.4 s: rank 0 waits 0.3 s
a step, and the load balance is 1.25 / 2.0), and the record must say so;
--platform-speed: measure with a platform naming this host at that speed and
a network: the record must take both from it (work = speed x t_comp);
--comm-profile: measure with a communication profile, whose send cost the
record must name as its transfer model (else, with no platform, the model
must be the one calibrated at MPI_Init).

Under `mpiexec -np 2` (Open MPI, --oversubscribe), each check with a time limit:
- known answers: 5 steps of 0.1 s (rank 0) and 0.2 s (rank 1) of computation;
  the record reads back through `hetscale analyze`; each rank's t_comp is its
  CPU time (0.5 s, 1 s) within 5 % however loaded the machine (other load is
  t_other), POP load balance is 0.75 within 0.03, rank 0's t_idle is its known
  wait of 0.5 s within 10 % (on a loaded machine: less rank 1's, the wait the
  ranks' times imply), each rank's times add up to t_par, and the record names
  the MPI functions called;
- the program's exit code (3, after MPI_Finalize) is passed on, its output is
  its own, and its record is still written;
- MPI_Abort, and death by SIGTERM before MPI_Finalize: the exit code is
  passed on (143 for the signal), there is no record and no temporary file,
  and hetscale says on one line why;
- the expert form, `mpiexec -x LD_PRELOAD=$(hetscale measure --library)` with
  HETSCALE_MEASURE_OUT and HETSCALE_MEASURE_SPEEDS, writes the record with
  those speeds.
"""
import argparse
import json
import os
import socket
import subprocess
import sys

import checks

LIMIT = 120
# The launcher: Open MPI's mpiexec, or another given with --mpiexec (MPICH's
# mpiexec.mpich, whose programs get hetscale's MPICH library).
LAUNCHER = ["mpiexec", "--oversubscribe"]


def mpiexec(hetscale, *arguments):
    command = [*LAUNCHER, "-np", "2", hetscale, "measure", *arguments]
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=LIMIT)


def main(hetscale, program, work, functions, known_only, emulate, known_balance, known_wait, platform_speed,
         comm_profile):
    os.makedirs(work, exist_ok=True)
    problems = []
    platform = []
    if platform_speed:
        # A platform naming this host (where every rank runs) at the given speed, with a network.
        path = os.path.join(work, "platform.json")
        with open(path, "w") as f:
            json.dump({"schema": "hetscale.platform/1", "name": "this host", "reference": {"name": "speed 1"},
                       "nodes": [{"name": socket.gethostname(), "speed": platform_speed}],
                       "network": {"latency_s": 0.005, "bandwidth_Bps": 12500000}}, f)
        platform = ["--platform", path]
    record = os.path.join(work, "known_wait.json")
    # A burst of other work on a shared machine can only add run-queue delay:
    # measure again, up to 3 times in all, while the known answers are missed.
    for attempt in range(1, 4):
        if os.path.exists(record):
            os.remove(record)
        emulation = ["--emulate-speeds", emulate] if emulate else []
        talp = [] if known_only else ["--talp-json", os.path.join(work, "known_wait.talp.json")]
        profile = ["--comm-profile", comm_profile] if comm_profile else []
        run = mpiexec(hetscale, *emulation, *platform, *profile, *talp, "--out", record, "--", program,
                      *([] if known_only else ["5"]))
        if run.returncode != 0:
            print(f"measure failed ({run.returncode}):\n{run.stdout}\n{run.stderr}", file=sys.stderr)
            return 1
        analysis = subprocess.run([hetscale, "analyze", record, "--json"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, timeout=LIMIT)
        if analysis.returncode != 0:
            print(f"hetscale analyze refused the record: {analysis.stderr}", file=sys.stderr)
            return 1
        result = json.loads(analysis.stdout)
        with open(record) as f:
            measured = json.load(f)
        balance = result["pop"]["load_balance"]
        idle = measured["nodes"][0]["t_idle"]
        comp = ", ".join(f"{n['t_comp']:.4f}" for n in measured["nodes"])
        other = ", ".join(f"{n['t_other']:.4f}" for n in measured["nodes"])
        print(f"run {attempt}: load balance {balance:.4f} (known {known_balance}), rank 0 t_idle {idle:.4f} s "
              f"(known {known_wait} s), t_comp {comp} s, t_other {other} s")
        if abs(balance - known_balance) <= 0.03 and abs(idle - known_wait) <= 0.1 * known_wait:
            break
    nodes = measured["nodes"]
    loaded = max(node["t_other"] for node in nodes) > 0.05 * measured["t_par"]
    # Known however loaded the machine is: the CPU time each rank computed,
    # (r + 1) x 0.1 s a step for 5 steps. The programs compute on the thread's
    # CPU clock; the wall time other load adds is run-queue delay, which the
    # record must hold as t_other, not as t_comp. (Under CPU quotas the
    # quota's wait is the emulated node's computation: not known then.)
    if not emulate:
        for rank, node in enumerate(nodes):
            known_cpu = (rank + 1) * 0.1 * 5
            if abs(node["t_comp"] - known_cpu) > 0.05 * known_cpu:
                problems.append(f"{node['name']}: t_comp {node['t_comp']:.4f} s is not its {known_cpu:.1f} s of CPU "
                                f"within 5 % (t_other {node['t_other']:.4f} s)")
    # Under a CPU quota on a loaded machine a rank gets less than its quota, and
    # how much of its wait is quota and how much other work is an estimate:
    # the known balance then holds only roughly, and is not asserted.
    if emulate and loaded:
        print(f"the machine was loaded: the emulated run's load balance {balance:.4f} is not held to "
              f"{known_balance}")
    elif abs(balance - known_balance) > 0.03:
        problems.append(f"load balance {balance:.4f} is not {known_balance} within 0.03")
    if platform_speed:
        context = measured["context"]
        if "platform" not in context["speeds"] or "platform" not in context["transfer_model"]:
            problems.append(f"the record does not say its speeds and network came from the platform: {context}")
        for node in measured["nodes"]:
            if abs(node["work"] - platform_speed * node["t_comp"]) > 1e-9 * max(1.0, node["work"]):
                problems.append(f"{node['name']}: work {node['work']} is not {platform_speed} x t_comp {node['t_comp']}")
    model = measured["context"]["transfer_model"]
    if comm_profile and not model.startswith(f"comm profile {comm_profile}'s send cost"):
        problems.append(f"the transfer model is not the comm profile's: {model}")
    if not comm_profile and not platform_speed and not model.startswith("calibrated at MPI_Init by a ping-pong"):
        problems.append(f"with no model given, the transfer model is not calibrated: {model}")
    if emulate and "emulated" not in measured["context"]["speeds"]:
        problems.append(f"the record does not say the speeds were emulated: {measured['context']['speeds']}")
    # The programs compute on the CPU clock, so a loaded machine stretches
    # rank 1's 1 s of computation in wall time, and rank 0 waits longer than
    # 0.5 s. Then (other load over 5 % of t_par on a rank) rank 0's wait must
    # be the one the ranks' measured times imply: rank 1's computation and
    # run-queue delay less rank 0's. Both ranks also wait at each meeting for
    # the other to be given a CPU again (rank 1's t_idle, near 0 on an idle
    # machine): rank 0's wait for rank 1 is its t_idle less rank 1's.
    implied = (nodes[1]["t_comp"] + nodes[1]["t_other"]) - (nodes[0]["t_comp"] + nodes[0]["t_other"])
    waited = idle - nodes[1]["t_idle"]
    if abs(idle - known_wait) > 0.1 * known_wait:
        if not loaded:
            problems.append(f"rank 0's t_idle {idle:.4f} s is not its known wait {known_wait} s within 10 %")
        elif abs(waited - implied) > 0.1 * implied:
            problems.append(f"on a loaded machine, rank 0's t_idle less rank 1's, {waited:.4f} s, is not the wait "
                            f"{implied:.4f} s its measured times imply, within 10 %")
        else:
            print(f"the machine was loaded (other load up to {max(n['t_other'] for n in nodes):.3f} s): rank 0's "
                  f"t_idle less rank 1's, {waited:.4f} s, checked against the wait {implied:.4f} s the measured "
                  "times imply")
    for node in measured["nodes"]:
        parts = sum(node[k] for k in ("t_comp", "t_comm", "t_setup", "t_idle", "t_other"))
        if parts > measured["t_par"] * 1.01:
            problems.append(f"{node['name']}: its times add up to {parts} s, over t_par = {measured['t_par']} s")
    called = {entry["function"] for entry in measured["context"]["mpi_functions"]}
    for function in functions.split(","):
        if function not in called:
            problems.append(f"the record's mpi_functions lack {function}: {sorted(called)}")

    if known_only:
        return checks.verdict(problems)

    # The same run in DLB TALP's layout: POP's factors as analyze computes them, times in ns.
    with open(os.path.join(work, "known_wait.talp.json")) as f:
        talp = json.load(f)
    global_region = talp["popMetrics"]["Global"]
    pop = result["pop"]
    for key, expected in (("mpiLoadBalance", pop["load_balance"]),
                          ("mpiCommunicationEfficiency", pop["communication_efficiency"]),
                          ("parallelEfficiency", pop["parallel_efficiency"])):
        if abs(global_region[key] - expected) > 1e-6:
            problems.append(f"TALP JSON {key} = {global_region[key]} is not analyze's {expected}")
    if abs(global_region["elapsedTime"] - measured["t_par"] * 1e9) > 1e3:
        problems.append(f"TALP JSON elapsedTime {global_region['elapsedTime']} ns is not t_par {measured['t_par']} s")
    processes = talp["process"][0]["process"]
    if [p["rank"] for p in processes] != [0, 1] or any(
            abs(p["usefulTime"] - n["t_comp"] * 1e9) > 1e3 for p, n in zip(processes, measured["nodes"])):
        problems.append(f"TALP JSON processes do not match the record's ranks and t_comp: {processes}")
    os.remove(os.path.join(work, "known_wait.talp.json"))

    # The expert form: the library preloaded by hand (mpiexec -x), options from
    # HETSCALE_MEASURE_* variables.
    library = subprocess.run([hetscale, "measure", "--library"], stdout=subprocess.PIPE, text=True,
                             timeout=LIMIT).stdout.strip()
    expert = os.path.join(work, "known_wait.expert.json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", "-x", f"LD_PRELOAD={library}",
                          "-x", f"HETSCALE_MEASURE_OUT={expert}", "-x", "HETSCALE_MEASURE_SPEEDS=1,0.5", program, "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=LIMIT)
    if run.returncode != 0 or not os.path.exists(expert):
        problems.append(f"the expert form (mpiexec -x LD_PRELOAD={library}) gave no record: exit {run.returncode}, "
                        f"{run.stderr!r}")
    else:
        with open(expert) as f:
            nodes = json.load(f)["nodes"]
        if [n["name"] for n in nodes] != ["rank-0", "rank-1"] or abs(nodes[1]["work"] - 0.5 * nodes[1]["t_comp"]) > 1e-9:
            problems.append(f"the expert form's record does not hold HETSCALE_MEASURE_SPEEDS=1,0.5: {nodes}")
        os.remove(expert)

    # The program's exit code and output are its own; the record is still written.
    os.remove(record)
    run = mpiexec(hetscale, "--out", record, "--", program, "1", "3")
    lines = sorted(line for line in run.stdout.splitlines() if line.startswith("known_wait"))
    if run.returncode != 3:
        problems.append(f"a program that exits 3 gave exit code {run.returncode}")
    if lines != ["known_wait: rank 0 of 2 did 1 steps (1)", "known_wait: rank 1 of 2 did 1 steps (1)"]:
        problems.append(f"the program's output changed: {run.stdout!r}")
    if not os.path.exists(record):
        problems.append("a program that exits 3 after MPI_Finalize got no record")

    # MPI_Abort: no record, no temporary, one line saying why.
    os.remove(record)
    run = mpiexec(hetscale, "--out", record, "--", program, "1", "0", "abort")
    if run.returncode == 0:
        problems.append("a program that calls MPI_Abort gave exit code 0")
    leftovers = [name for name in os.listdir(work) if name.startswith("known_wait")]
    if leftovers:
        problems.append(f"MPI_Abort left files: {leftovers}")
    if "hetscale: no run record written to" not in run.stderr:
        problems.append(f"no line saying why there is no record: {run.stderr!r}")

    # Death by a signal before MPI_Finalize: 128 + the signal passed on, no
    # record, no temporary, one line saying why.
    run = mpiexec(hetscale, "--out", record, "--", program, "1", "0", "signal")
    if run.returncode != 128 + 15:
        problems.append(f"a program killed by SIGTERM gave exit code {run.returncode}, not 143")
    leftovers = [name for name in os.listdir(work) if name.startswith("known_wait")]
    if leftovers:
        problems.append(f"death by a signal left files: {leftovers}")
    if "was killed by signal 15 before its MPI_Finalize completed" not in run.stderr:
        problems.append(f"no line saying the program was killed: {run.stderr!r}")

    return checks.verdict(problems)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("hetscale")
    parser.add_argument("program")
    parser.add_argument("work")
    parser.add_argument("--functions", default="MPI_Init,MPI_Send,MPI_Recv")
    parser.add_argument("--known-only", action="store_true")
    parser.add_argument("--emulate-speeds", default="")
    parser.add_argument("--balance", type=float, default=0.75)
    parser.add_argument("--wait", type=float, default=0.5)
    parser.add_argument("--platform-speed", type=float, default=0.0)
    parser.add_argument("--comm-profile", default="")
    parser.add_argument("--mpiexec", default="", help="another launcher (MPICH's mpiexec.mpich)")
    a = parser.parse_args()
    if a.mpiexec:
        LAUNCHER[:] = [a.mpiexec]
    sys.exit(main(a.hetscale, a.program, a.work, a.functions, a.known_only,
                  a.emulate_speeds, a.balance, a.wait, a.platform_speed, a.comm_profile))
