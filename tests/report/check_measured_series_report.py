#!/usr/bin/env python3
"""A report of a series of measured runs, read in headless Chromium.

  check_measured_series_report.py --hetscale H --mpiexec M [--flags "F1;F2"] --program STENCIL
      --chromium C --out-dir DIR

One program (tests/measure/programs/stencil.c) measured by `hetscale measure`
at 1, 2 and 4 ranks and once at 2 ranks emulated at speeds 1 and 0.5; their
report must show, in the browser's DOM: the series over ranks with the
strong-scaling speed-up T(p0)/T(p) against the 1-rank run, each run's MPI
function table, and headings that tell the runs apart (the emulated one says
so). The page is left in DIR (series.html, series.png: the page as first seen).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys


def fail(message):
    sys.exit(f"FAIL: {message}")


def main():
    parser = argparse.ArgumentParser()
    for name in ("--hetscale", "--mpiexec", "--program", "--chromium", "--out-dir"):
        parser.add_argument(name, required=True)
    parser.add_argument("--flags", default="")
    args = parser.parse_args()
    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    flags = [f for f in args.flags.split(";") if f]
    program = [args.program, "--steps", "100", "--cells", "200000"]
    runs = []
    for ranks, emulate in ((1, None), (2, None), (4, None), (2, "1,0.5")):
        record = out / (f"run-{ranks}" + ("-emulated" if emulate else "") + ".json")
        measure = [args.mpiexec, "-np", str(ranks), *flags, args.hetscale, "measure", "--out", str(record)]
        if emulate:
            measure += ["--emulate-speeds", emulate]
        done = subprocess.run([*measure, "--", *program], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            fail(f"{' '.join(measure)}: exit code {done.returncode}\n{done.stderr}")
        runs.append(str(record))
    # The runs are of one program, whatever the folder each ran from.
    for path in runs:
        if json.loads(pathlib.Path(path).read_text())["context"]["program"] != args.program:
            fail(f"{path}: context.program is not {args.program}")
    page = out / "series.html"
    report = subprocess.run([args.hetscale, "report", *runs, "--out", str(page)], capture_output=True, text=True,
                            timeout=300)
    if report.returncode != 0:
        fail(f"hetscale report: exit code {report.returncode}\n{report.stderr}")
    # 4 runs x 2 figures, the series' 2.
    check = [sys.executable, str(pathlib.Path(__file__).with_name("check_report_in_browser.py")), str(page),
             "--expected-figures", "10", "--chromium", args.chromium, "--screenshot", str(out / "series.png"),
             "--distinct-headings",
             "--heading", "Speed-up over ranks",
             "--heading", "on 1 rank (hetscale measure)",
             "--heading", "on 2 ranks (hetscale measure), emulated speeds 1, 0.5",
             "--table", "strong-scaling speed-up T(p0)/T(p)",
             "--table", "MPI functions that took most", "--table", "| function | calls | seconds |"]
    browser = subprocess.run(check, capture_output=True, text=True, timeout=180)
    print(browser.stdout)
    if browser.returncode != 0:
        fail(f"the page in the browser:\n{browser.stdout}\n{browser.stderr}")
    print(f"passed: {page}")


if __name__ == "__main__":
    main()
