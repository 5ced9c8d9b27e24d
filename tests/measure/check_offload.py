#!/usr/bin/env python3
"""OpenMP target offload measured: a program of known kernels and mapped
bytes (tests/measure/programs/offload_known.c, built with clang for LLVM's
host device plugin, 2 ranks) run under `hetscale measure`, which puts its
wrapper of the host plugin first in the program's library path.

    check_offload.py HETSCALE OFFLOAD_KNOWN WORK_DIR

For every rank, the record's offload part against what the program knows
and its own timers:
- kernels, copies to and from the device and their bytes: exact;
- the kernels' seconds at least the CPU time they computed (a kernel's wall
  time cannot be less), and the kernels and copies inside the host's time
  in the offload runtime;
- the host's time in the offload runtime within the program's own timer of
  its target constructs, and at least 90 % of it (the constructs are the
  runtime's calls);
- analyze's device factors: parallel efficiency = load balance x
  communication efficiency x orchestration efficiency, and a device offload
  efficiency in (0, 1].
"""
import json
import os
import re
import subprocess

import checks

STEPS, N, WORK = 4, 100000, 0.02


def main(hetscale, program, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "offload.json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--",
                          program, str(STEPS), str(N), str(WORK)], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        return checks.verdict([f"{program} failed ({run.returncode}): {run.stderr[-800:]}"])
    known = re.search(r"per rank: kernels (\d+), copies to the device (\d+) \((\d+) bytes\), from it (\d+) \((\d+) "
                      r"bytes\)", run.stdout)
    timers = re.search(r"own timers: kernels (\S+) s, target constructs (\S+) s", run.stdout)
    if not known or not timers:
        return checks.verdict([f"the program did not print what it knows: {run.stdout[-400:]}"])
    kernels, copies_to, bytes_to, copies_from, bytes_from = (int(v) for v in known.groups())
    constructs = float(timers.group(2))
    offload, devices, problems = checks.one_device_a_rank(record, 2)
    if offload is None:
        return checks.verdict(problems)
    for rank in range(2):
        if devices[rank] is None:
            continue
        device = devices[rank]
        for key, wanted in (("kernels", kernels), ("copies_to", copies_to), ("bytes_to", bytes_to),
                            ("copies_from", copies_from), ("bytes_from", bytes_from)):
            if device[key] != wanted:
                problems.append(f"rank {rank}: {key} {device[key]:g}, known {wanted}")
        runtime = offload["runtime_s"][rank]
        computed = kernels * WORK
        if device["kernel_s"] < 0.99 * computed:
            problems.append(f"rank {rank}: kernels {device['kernel_s']:.4f} s, less than the {computed:.4f} s of CPU "
                            "they computed")
        if device["kernel_s"] + device["copy_s"] > runtime * 1.001:
            problems.append(f"rank {rank}: kernels and copies {device['kernel_s'] + device['copy_s']:.4f} s, more "
                            f"than the host's {runtime:.4f} s in the offload runtime")
        if rank == 0 and not 0.9 * constructs <= runtime <= constructs + 1e-3:
            problems.append(f"rank 0: the host in the offload runtime {runtime:.4f} s, its own timer of the target "
                            f"constructs {constructs:.4f} s")
        print(f"rank {rank}: kernels {device['kernels']:g} in {device['kernel_s']:.4f} s (computed {computed:.4f} s), "
              f"copies {device['copies_to']:g} + {device['copies_from']:g} of {device['bytes_to']:.0f} + "
              f"{device['bytes_from']:.0f} bytes in {device['copy_s']:.4f} s, runtime {runtime:.4f} s "
              f"(own timer {constructs:.4f} s on rank 0)")
    analysis = json.loads(subprocess.run([hetscale, "analyze", record, "--json"], capture_output=True, text=True,
                                         check=True, timeout=60).stdout)
    for rank in analysis.get("offload", []):
        factors = rank.get("device_factors")
        if not factors:
            problems.append(f"{rank['name']}: analyze gives no device factors")
            continue
        product = (factors["load_balance"] * factors["communication_efficiency"] *
                   factors["orchestration_efficiency"])
        if abs(product - factors["parallel_efficiency"]) > 1e-9:
            problems.append(f"{rank['name']}: parallel efficiency {factors['parallel_efficiency']}, the product of "
                            f"its factors {product}")
        if not 0 < rank.get("device_offload_efficiency", 0) <= 1:
            problems.append(f"{rank['name']}: device offload efficiency {rank.get('device_offload_efficiency')}")
    if len(analysis.get("offload", [])) != 2:
        problems.append(f"analyze gives {len(analysis.get('offload', []))} ranks' offload, not 2")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
