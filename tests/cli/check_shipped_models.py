#!/usr/bin/env python3
"""Every functional performance model shipped in data/fpm/ (measured by
`hetscale bench fpm`) is partitioned by the geometric and the numerical
partitioner at several sizes: the two agree on the makespan (to 1e-9),
and the shares sum to the units asked.

  check_shipped_models.py HETSCALE DATA_DIR
"""
import glob
import json
import os
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    hetscale, data = sys.argv[1], sys.argv[2]
    models = sorted(glob.glob(os.path.join(data, "fpm", "*.json")))
    if not models:
        fail(f"no model in {data}/fpm")
    for path in models:
        with open(path) as f:
            model = json.load(f)
        covered = min(sum(int(node["points"][-1]["size"]) if len(node["points"]) > 1 else 10**6
                          for node in model["nodes"]), 10**6)
        for fraction in (0.1, 0.3, 0.5, 0.7, 0.9, 1.0):
            units = max(1, int(covered * fraction))
            makespans = {}
            for algorithm in ("geometric", "numerical"):
                result = subprocess.run([hetscale, "partition", "--model", path, "--units", str(units),
                                         "--algorithm", algorithm, "--json"], capture_output=True, text=True)
                if result.returncode != 0:
                    fail(f"{path}, {units} units, {algorithm}: exit {result.returncode}: {result.stderr}")
                answer = json.loads(result.stdout)
                shares = [node["units"] for node in answer["partition"]["nodes"]]
                if sum(shares) != units:
                    fail(f"{path}, {units} units, {algorithm}: shares {shares} sum to {sum(shares)}")
                makespans[algorithm] = answer["partition"]["makespan"]
            if abs(makespans["geometric"] - makespans["numerical"]) > 1e-9 * makespans["numerical"]:
                fail(f"{path}, {units} units: geometric {makespans['geometric']!r} s, numerical "
                     f"{makespans['numerical']!r} s")
        print(f"{os.path.basename(path)}: geometric and numerical agree at 6 sizes")


if __name__ == "__main__":
    main()
