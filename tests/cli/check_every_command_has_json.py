#!/usr/bin/env python3
"""Every hetscale command has --json (the README says so): walks `hetscale
--help` and each subcommand's help down to the commands that run, and checks
that each lists --json.

    check_every_command_has_json.py HETSCALE
"""
import re
import subprocess
import sys

from check_help import subcommands  # beside this file

# Commands that print nothing of their own, and why.
EXEMPT = {
    "measure": "the measured program's stdout is its own; the run record it writes is JSON",
}


def main(hetscale):
    missing, leaves, pending = [], [], [[]]
    while pending:
        path = pending.pop(0)
        result = subprocess.run([hetscale, *path, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        if result.returncode != 0:
            print(f"hetscale {' '.join(path)} --help exited {result.returncode}: {result.stderr}", file=sys.stderr)
            return 1
        children = subcommands(result.stdout)
        if children:
            pending.extend(path + [child] for child in children)
            continue
        leaves.append(" ".join(path))
        if " ".join(path) in EXEMPT:
            print(f"hetscale {' '.join(path)}: no --json needed: {EXEMPT[' '.join(path)]}")
            continue
        if not re.search(r"^\s+--json\b", result.stdout, re.MULTILINE):
            missing.append(" ".join(path))
    for command in missing:
        print(f"hetscale {command}: no --json", file=sys.stderr)
    print(f"{len(leaves)} commands, {len(leaves) - len(missing)} with --json or exempt")
    return 1 if missing or not leaves else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
