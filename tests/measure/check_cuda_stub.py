#!/usr/bin/env python3
"""hetscale's CUDA backend (src/measure/offload/cupti_activity.cpp) against a
stand-in CUPTI (tests/measure/programs/cupti_stub.c, whose activity records
are known) in a program linked with it (cuda_stub_program.c), 2 ranks.

    check_cuda_stub.py HETSCALE PROGRAM WORK_DIR

Per rank, from the stand-in's records: device 0 has 3 kernels (30 ms:
useful), 2 copies to it of 1,000,000 bytes and 1 from it of 2,000,000 bytes
(4 ms: communication; its copy from device to device is not one), device 1
1 kernel (20 ms); the host was 20 ms in the runtime in 4 calls. Then
analyze's device factors on these hand values and the run's t_par:
load balance (30 + 20) / (2 x 30), communication efficiency 30 / 34,
orchestration efficiency 34 ms / t_par, parallel efficiency 50 ms / (2 x t_par).
"""
import json
import os
import subprocess

import checks

DEVICES = {0: {"kernels": 3, "kernel_s": 0.030, "copies_to": 2, "bytes_to": 2000000, "copies_from": 1,
               "bytes_from": 2000000, "copy_s": 0.004},
           1: {"kernels": 1, "kernel_s": 0.020, "copies_to": 0, "bytes_to": 0, "copies_from": 0, "bytes_from": 0,
               "copy_s": 0.0}}


def main(hetscale, program, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "cuda.json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--",
                          program], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        return checks.verdict([f"{program} failed ({run.returncode}): {run.stderr[-800:]}"])
    with open(record) as f:
        written = json.load(f)
    offload = written["context"].get("offload")
    if not offload:
        return checks.verdict(["the record has no offload part: the CUDA backend did not take the records"])
    problems = []
    for rank in range(2):
        devices = {d["device"]: d for d in offload["devices"][rank]}
        if sorted(devices) != [0, 1]:
            problems.append(f"rank {rank}: devices {sorted(devices)}, not [0, 1]")
            continue
        for number, known in DEVICES.items():
            for key, wanted in known.items():
                if abs(devices[number][key] - wanted) > 1e-9 * max(1, wanted):
                    problems.append(f"rank {rank}, device {number}: {key} {devices[number][key]}, known {wanted}")
        if abs(offload["runtime_s"][rank] - 0.020) > 1e-9 or offload["runtime_calls"][rank] != 4:
            problems.append(f"rank {rank}: runtime {offload['runtime_s'][rank]} s in "
                            f"{offload['runtime_calls'][rank]} calls, known 0.02 s in 4")
    t_par = written["t_par"]
    hand = {"load_balance": 0.05 / 0.06, "communication_efficiency": 0.030 / 0.034,
            "orchestration_efficiency": 0.034 / t_par, "parallel_efficiency": 0.05 / (2 * t_par)}
    analysis = json.loads(subprocess.run([hetscale, "analyze", record, "--json"], capture_output=True, text=True,
                                         check=True, timeout=60).stdout)
    for rank in analysis.get("offload", []):
        for key, wanted in hand.items():
            got = rank.get("device_factors", {}).get(key)
            if got is None or abs(got - wanted) > 1e-9:
                problems.append(f"{rank['name']}: {key} {got}, by hand {wanted}")
        print(f"{rank['name']}: " + ", ".join(f"{k} {rank['device_factors'][k]:.6f}" for k in hand))
    if len(analysis.get("offload", [])) != 2:
        problems.append(f"analyze gives {len(analysis.get('offload', []))} ranks' offload, not 2")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 3)
