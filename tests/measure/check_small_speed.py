#!/usr/bin/env python3
"""`hetscale measure --emulate-speeds` at a few percent of a CPU: hetscale's
own work at MPI_Init (the transfer model's ping-pong) is neither slowed by the
emulated speed nor counted as the program's computation.

    check_small_speed.py HETSCALE KNOWN_WAIT WORK_DIR

known_wait 1 (one step: rank r computes (r + 1) x 0.1 s of CPU time, then the
ranks exchange a message) under `mpiexec -np 2` at emulated speeds 0.04 and
0.04: rank r's computation takes (r + 1) x 0.1 / 0.04 s, 2.5 s and 5 s, held
back after it; a ping-pong slowed as much would take seconds. Checked:
- each rank's t_comp is its CPU time over its speed within 25 % (other load
  on the machine is t_other);
- the calibrated latency is under 1 ms (the ping-pong ran at full speed);
- the slowest rank's times add up to t_par within 1 % (the ping-pong's time
  is t_setup).
"""
import json
import os
import re
import subprocess
import sys

import checks

SPEED = 0.04


def main(hetscale, program, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "small_speed.json")
    if os.path.exists(record):
        os.remove(record)
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--emulate-speeds",
                          f"{SPEED},{SPEED}", "--out", record, "--", program, "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    if run.returncode != 0:
        print(f"measure failed ({run.returncode}):\n{run.stdout}\n{run.stderr}", file=sys.stderr)
        return 1
    with open(record) as f:
        measured = json.load(f)
    problems = []
    nodes = measured["nodes"]
    for rank, node in enumerate(nodes):
        known = (rank + 1) * 0.1 / SPEED
        print(f"{node['name']}: t_comp {node['t_comp']:.3f} s (known {known:.2f} s), t_setup {node['t_setup']:.3f} s, "
              f"t_other {node['t_other']:.3f} s, t_idle {node['t_idle']:.3f} s")
        if abs(node["t_comp"] - known) > 0.25 * known:
            problems.append(f"{node['name']}: t_comp {node['t_comp']:.3f} s is not (r + 1) x 0.1 / {SPEED} = "
                            f"{known:.2f} s within 25 %")
    slowest = max(sum(node[key] for key in ("t_comp", "t_comm", "t_setup", "t_idle", "t_other")) for node in nodes)
    if abs(slowest - measured["t_par"]) > 0.01 * measured["t_par"]:
        problems.append(f"the slowest rank's times add up to {slowest:.4f} s, not t_par {measured['t_par']:.4f} s")
    model = measured["context"]["transfer_model"]
    latency = re.search(r"latency ([0-9.eE+-]+) s", model)
    print(f"transfer model: {model}")
    if not model.startswith("calibrated at MPI_Init by a ping-pong") or not latency:
        problems.append(f"the transfer model is not the calibrated one: {model}")
    elif not float(latency.group(1)) < 1e-3:
        problems.append(f"the calibrated latency {latency.group(1)} s is not under 1 ms: the ping-pong was throttled")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
