#!/usr/bin/env python3
"""Your own objective for the GA farm: a program (command:PROGRAM)
and a library (library:PATH), each computing Rastrigin's function as the
built-in synthetic objective does, find the same optimum on the same seed as
the built-in one, on 1, 2 and 5 ranks; a program that prints no number is a
failed evaluation, reported with the genome, not a crash.

  check_user_objectives.py HETSCALE MPIEXEC FLAGS COMMAND LIBRARY
"""
import json
import subprocess
import sys

hetscale, mpiexec, flags, command, library = sys.argv[1:6]
flags = [f for f in flags.split(";") if f]
ga = ["--population", "16", "--generations", "6", "--seed", "7", "--dimensions", "8"]


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def farm(ranks, *arguments):
    result = subprocess.run([mpiexec, "-np", str(ranks)] + flags + [hetscale, "farm", "--json"] + list(arguments),
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        fail(f"farm {' '.join(arguments)} on {ranks} ranks: exit code {result.returncode}\n{result.stderr}")
    return json.loads(result.stdout), result.stderr


reference, _ = farm(1, "--objective", "synthetic", "--eval-time", "0", *ga)
best = (reference["context"]["best_fitness"], reference["context"]["best_genome"])
for ranks in (1, 2, 5):
    for objective in ([f"command:{command}", "--bounds", "-5.12:5.12", *ga],
                      [f"library:{library}", "--population", "16", "--generations", "6", "--seed", "7"]):
        record, _ = farm(ranks, "--objective", *objective)
        found = (record["context"]["best_fitness"], record["context"]["best_genome"])
        if found != best:
            fail(f"{objective[0]} on {ranks} ranks found {found}, the built-in Rastrigin {best}")
        if record["context"].get("failed_tasks") != 0:
            fail(f"{objective[0]} on {ranks} ranks: failed evaluations {record['context'].get('failed_tasks')}")
        print(f"{objective[0].split(':')[0]} on {ranks} ranks: best fitness {found[0]} as the built-in")

# A program whose last line is not a number: every evaluation fails, said
# with its genome (the first few), counted; the run ends normally.
record, errors = farm(3, "--objective", f"command:{command} hello", "--bounds", "-1:1", "--population", "4",
                      "--generations", "1", "--dimensions", "2")
evaluations = record["context"]["evaluations"]
if record["context"].get("failed_tasks") != evaluations:
    fail(f"{evaluations} evaluations all fail, the record counts {record['context'].get('failed_tasks')}")
lines = [line for line in errors.splitlines() if "evaluation failed" in line]
if len(lines) != 5 or "its last line is 'hello', not a number" not in lines[0] or "for the genome [" not in lines[0]:
    fail(f"stderr should name the first five failed evaluations with their genomes:\n{errors}")
print("a program that prints no number: every evaluation failed and was reported; the run ended normally")
