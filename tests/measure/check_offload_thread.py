#!/usr/bin/env python3
"""Offload from a thread that does not call MPI, measured: the hybrid example
(examples/library/host_device_rows.c), 2 ranks, each splitting its rows
evenly between BLAS on its MPI-calling thread and a helper thread that
offloads the rest to its OpenMP device, five iterations, run under
`hetscale measure`. The split comes from tests/cli/partition/model-device.json
(two ranks, each its cores and a device; the even split uses only its
ranks).

    check_offload_thread.py HETSCALE HOST_DEVICE_ROWS MODEL WORK_DIR

The program's own output says each rank's device rows; from them and the
order, what each rank's device must show, exactly: 5 kernels; 15 copies to
it (A's rows, B and the on-device flag, each iteration) of 5 x ((rows +
order) x order x 8 + 4) bytes; 10 copies from it (C's rows and the flag) of
5 x (rows x order x 8 + 4) bytes. The program keeps its output and its exit
code 0, and every row once and right.
"""
import os
import re
import subprocess

import checks

ROWS, ORDER, ITERATIONS = 400, 100, 5


def main(hetscale, program, model, work):
    os.makedirs(work, exist_ok=True)
    record = os.path.join(work, "hybrid.json")
    environment = dict(os.environ, OMP_NUM_THREADS="1", KMP_BLOCKTIME="0", OPENBLAS_NUM_THREADS="1")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--out", record, "--",
                          program, model, str(ROWS), str(ORDER), "even"], capture_output=True, text=True,
                         timeout=300, env=environment)
    if run.returncode != 0:
        return checks.verdict([f"{program} under measure failed ({run.returncode}): {run.stderr[-800:]}"])
    if "every row once: yes; rows right, on the device: yes" not in run.stdout:
        return checks.verdict([f"the program did not compute every row once and right: {run.stdout[-600:]}"])
    device_rows = {int(rank): int(rows) for rank, rows in
                   re.findall(r"rank (\d+): cores \d+ rows in \S+ s \(predicted \S+ s\), device (\d+) rows",
                              run.stdout)}
    if sorted(device_rows) != [0, 1]:
        return checks.verdict([f"the program did not say both ranks' device rows: {run.stdout[-600:]}"])
    offload, devices, problems = checks.one_device_a_rank(record, 2)
    if offload is None:
        return checks.verdict(problems)
    for rank in range(2):
        if devices[rank] is None:
            continue
        device, rows = devices[rank], device_rows[rank]
        known = {"kernels": ITERATIONS, "copies_to": 3 * ITERATIONS, "copies_from": 2 * ITERATIONS,
                 "bytes_to": ITERATIONS * ((rows + ORDER) * ORDER * 8 + 4),
                 "bytes_from": ITERATIONS * (rows * ORDER * 8 + 4)}
        for key, wanted in known.items():
            if device[key] != wanted:
                problems.append(f"rank {rank}: {key} {device[key]:g}, known {wanted}")
        if not 0 < device["kernel_s"] <= offload["runtime_s"][rank] * 1.001:
            problems.append(f"rank {rank}: kernels {device['kernel_s']:.4f} s against the runtime's "
                            f"{offload['runtime_s'][rank]:.4f} s")
        print(f"rank {rank}: {rows} device rows: kernels {device['kernels']:g} in {device['kernel_s']:.4f} s, copies "
              f"{device['copies_to']:g} + {device['copies_from']:g} of {device['bytes_to']:.0f} + "
              f"{device['bytes_from']:.0f} bytes, runtime {offload['runtime_s'][rank]:.4f} s")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 4)
