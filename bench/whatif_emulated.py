#!/usr/bin/env python3
"""Does the diagnosis's what-if hold under emulation? A program measured with
an even split on ranks emulated at speeds 1 and 0.5, then with the split the
diagnosis proposes (speed-proportional: 2/3 and 1/3), alternated.

    whatif_emulated.py [--check] [--runs K] HETSCALE STENCIL LMP LJ_INPUT [WORK_DIR]

For LAMMPS (Debian's lmp on the Lennard-Jones melt, two ranks side by side
along x: `processors 2 1 1`; the proposed split by `balance 1.0 x 0.6667`)
and for the stencil of tests/measure/programs (--split 1,1 then
--split 0.6667,0.3333): K runs of each split in turn (3 by default). The
diagnosis of each even run predicts t_par under the speed-proportional
split (APGA 2004, Proposition 1 with Eq 14's time kept); the goal: the mean
measured t_par of the proposed split within 10 % of the mean predicted one.
Prints a table; --check exits 1 when a goal is missed.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

SPEEDS = "1,0.5"
GOAL = 0.10


def measure(hetscale, work, name, program):
    record = os.path.join(work, name + ".json")
    run = subprocess.run(["mpiexec", "--oversubscribe", "-np", "2", hetscale, "measure", "--emulate-speeds", SPEEDS,
                          "--out", record, "--"] + program, capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        raise SystemExit(f"whatif_emulated: {name} failed ({run.returncode}): {run.stderr.strip()[-400:]}")
    analysis = json.loads(subprocess.run([hetscale, "analyze", record, "--json"], capture_output=True, text=True,
                                         check=True).stdout)
    predicted = None
    for loss in analysis["diagnosis"]:
        if loss.get("t_par_after") is not None:
            predicted = loss["t_par_after"]
    with open(record) as f:
        data = json.load(f)
    return data["t_par"], predicted, analysis["heterogeneous"]["efficiency"] if "heterogeneous" in analysis else None


def lammps_input(template, work, cut):
    with open(template) as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        if line.startswith("create_box"):
            out.append("processors      2 1 1")
        out.append(line)
        if line.startswith("mass") and cut is not None:
            out.append(f"balance         1.0 x {cut}")
    path = os.path.join(work, f"lj-{'even' if cut is None else 'proposed'}.in")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


def main(argv):
    check = "--check" in argv
    runs = 3
    arguments = []
    i = 0
    while i < len(argv):
        if argv[i] == "--runs":
            runs = int(argv[i + 1])
            i += 2
            continue
        if not argv[i].startswith("--"):
            arguments.append(argv[i])
        i += 1
    if len(arguments) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    hetscale, stencil, lmp, lj = arguments[:4]
    work = arguments[4] if len(arguments) > 4 else tempfile.mkdtemp(prefix="whatif-emulated-")
    os.makedirs(work, exist_ok=True)
    speeds = [float(v) for v in SPEEDS.split(",")]
    shares = [v / sum(speeds) for v in speeds]
    programs = {
        "LAMMPS lj-melt (32,000 atoms, 200 steps)": (
            [lmp, "-log", "none", "-in", lammps_input(lj, work, None)],
            [lmp, "-log", "none", "-in", lammps_input(lj, work, f"{shares[0]:.4f}")]),
        "stencil (8,000,000 cells, 40 steps)": (
            [stencil, "--cells", "8000000", "--steps", "40", "--split", "1,1"],
            [stencil, "--cells", "8000000", "--steps", "40", "--split", ",".join(f"{s:.4f}" for s in shares)]),
    }
    met = True
    print(f"\n## The what-if of a speed-proportional split under --emulate-speeds {SPEEDS}, {runs} alternated runs each\n")
    print("| program | even split: t_par (s) | e | predicted t_par, proposed split (s) | proposed split: t_par (s) "
          "| error | goal |")
    print("|---|---|---|---|---|---|---|")
    for name, (even, proposed) in programs.items():
        even_times, predictions, efficiencies, proposed_times = [], [], [], []
        for k in range(runs):
            t_par, predicted, e = measure(hetscale, work, f"{name.split()[0]}-even-{k}", even)
            even_times.append(t_par)
            efficiencies.append(e)
            if predicted is not None:
                predictions.append(predicted)
            t_par, _, _ = measure(hetscale, work, f"{name.split()[0]}-proposed-{k}", proposed)
            proposed_times.append(t_par)
        if not predictions:
            print(f"| {name} | {statistics.mean(even_times):.3f} | - | no speed-proportional split proposed | "
                  f"{statistics.mean(proposed_times):.3f} | - | missed |")
            met = False
            continue
        predicted = statistics.mean(predictions)
        measured = statistics.mean(proposed_times)
        error = measured / predicted - 1.0
        ok = abs(error) <= GOAL
        met = met and ok
        print(f"| {name} | {statistics.mean(even_times):.3f} ({', '.join(f'{t:.3f}' for t in even_times)}) | "
              f"{statistics.mean(e for e in efficiencies if e is not None):.4f} | {predicted:.3f} | "
              f"{measured:.3f} ({', '.join(f'{t:.3f}' for t in proposed_times)}) | {error:+.1%} | "
              f"within 10 %: {'met' if ok else 'missed'} |")
    print()
    return 1 if check and not met else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
