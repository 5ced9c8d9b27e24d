#!/usr/bin/env python3
"""Checks the headline and diagnosis of a `hetscale analyze --json` document.

What must hold for any run, measured or not: the efficiency to read first is
in (0, 1]; the diagnosis's losses are ranked, each at least 1 % and together
no more than what the efficiency leaves (they add up to the nodes' capacity);
each loss says what removing it gains, never less than the efficiency now.

    check_diagnosis.py ANALYSIS.json
"""
import json
import sys


def main(path):
    with open(path) as f:
        document = json.load(f)
    top = document["headline"]
    efficiency = top["efficiency"]
    problems = []
    if not 0.0 < efficiency <= 1.0 + 1e-9:
        problems.append(f"headline efficiency {efficiency} is not in (0, 1]")
    if document["t_seq_ref"] is not None:
        expected = document["t_seq_ref"] / document["t_par"]
        if abs(top["measured_speedup"] - expected) > 1e-9 * expected:
            problems.append(f"measured speed-up {top['measured_speedup']} is not t_seq_ref / t_par = {expected}")
    losses = document["diagnosis"]
    total = efficiency
    for i, loss in enumerate(losses):
        total += loss["fraction"]
        if loss["fraction"] < 0.01:
            problems.append(f"diagnosis[{i}]: fraction {loss['fraction']} under 1 %")
        if i and loss["fraction"] > losses[i - 1]["fraction"]:
            problems.append(f"diagnosis[{i}]: larger than the loss before it")
        if loss["efficiency_after"] < efficiency - 1e-9:
            problems.append(f"diagnosis[{i}]: efficiency after {loss['efficiency_after']} below {efficiency}")
        if not loss["text"] or not loss["what_if"]:
            problems.append(f"diagnosis[{i}]: no sentence or no what-if")
    if total > 1.0 + 1e-9:
        problems.append(f"efficiency + losses = {total} exceeds the capacity 1")
    for problem in problems:
        print(f"{path}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
