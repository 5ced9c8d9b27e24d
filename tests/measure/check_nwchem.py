#!/usr/bin/env python3
"""NWChem from Debian (nwchem-openmpi: Global Arrays over ARMCI-MPI, so MPI
one-sided calls), measured unmodified by `hetscale measure`.

    check_nwchem.py HETSCALE NWCHEM INPUT WORK_DIR

Runs INPUT (tests/measure/data/h2o-scf.nw: an SCF energy of water, 6-31G*)
at 1 rank and at 2, in WORK_DIR (NWChem writes its scratch files there).
What must hold:
- NWChem's output and exit code are its own (exit 0, "Total SCF energy"
  printed, the same energy at 1 and 2 ranks to 1e-8);
- at 1 rank every GA operation is the rank's, and GA's own statistics (which
  NWChem prints for process 0) must agree with hetscale's bytes: GA's gets
  are ARMCI-MPI's MPI_Get_accumulate (no-op fetches), its puts and
  accumulates its MPI_Accumulate, and its read-and-increments its
  MPI_Fetch_and_op: bytes within 1 % (GA prints three digits), the
  read-and-increments' count exactly;
- both records read back through `hetscale analyze`.
"""
import json
import os
import re
import subprocess
import sys

import checks


def run(hetscale, nwchem, source, work, ranks):
    record = os.path.join(work, f"nwchem-{ranks}.json")
    if os.path.exists(record):
        os.remove(record)
    command = ["mpiexec", "--oversubscribe", "-np", str(ranks), hetscale, "measure", "--out", record, "--",
               nwchem, os.path.abspath(source)]
    return subprocess.run(command, capture_output=True, text=True, cwd=work, timeout=300), record


def ga_statistics(output):
    """GA's statistics for process 0: {operation: (calls, bytes total)}."""
    block = output[output.index("GA Statistics for process"):]
    names = block.splitlines()[3].split()
    calls = [float(x) for x in re.search(r"^calls:(.*)$", block, re.M).group(1).split()]
    totals = [float(x) for x in re.search(r"^bytes total:(.*)$", block, re.M).group(1).split()]
    # "bytes total" has no entry for create and destroy
    return {name: (calls[i], totals[i - 2] if i >= 2 else 0.0) for i, name in enumerate(names)}


def main(hetscale, nwchem, source, work):
    os.makedirs(work, exist_ok=True)
    problems, energies = [], {}
    for ranks in (1, 2):
        result, record = run(hetscale, nwchem, source, work, ranks)
        energy = re.search(r"Total SCF energy =\s+(\S+)", result.stdout)
        if result.returncode != 0 or not energy:
            problems.append(f"{ranks} ranks: NWChem exit {result.returncode}, energy "
                            f"{'printed' if energy else 'not printed'}: {result.stderr[-300:]}")
            continue
        energies[ranks] = float(energy.group(1))
        analysis = subprocess.run([hetscale, "analyze", record], capture_output=True, text=True)
        if analysis.returncode != 0:
            problems.append(f"{ranks} ranks: analyze refused the record: {analysis.stderr.strip()}")
        if ranks != 1:
            continue
        ga = ga_statistics(result.stdout)
        functions = {f["function"]: f for f in json.load(open(record))["context"]["mpi_functions"]}
        pairs = [("MPI_Get_accumulate", ga["get"][1], "GA's gets"),
                 ("MPI_Accumulate", ga["put"][1] + ga["acc"][1], "GA's puts and accumulates")]
        for function, expected, what in pairs:
            counted = functions.get(function, {}).get("bytes", 0.0)
            if abs(counted / expected - 1.0) > 0.01:
                problems.append(f"{function}: {counted:.0f} bytes, {what} {expected:.3g}")
        fetches = functions.get("MPI_Fetch_and_op", {}).get("calls", 0.0)
        if fetches != ga["read&inc"][0]:
            problems.append(f"MPI_Fetch_and_op: {fetches:.0f} calls, GA's read-and-increments {ga['read&inc'][0]:.0f}")
    if len(energies) == 2 and abs(energies[1] - energies[2]) > 1e-8:
        problems.append(f"the SCF energy differs: {energies[1]} at 1 rank, {energies[2]} at 2")
    return checks.verdict(problems)


if __name__ == "__main__":
    checks.run(main, __doc__, 4)
