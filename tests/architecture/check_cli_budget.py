#!/usr/bin/env python3
"""The command line's budget, checked: apps/hetscale/ holds no more lines in
all, and none of its files more, than the table "command line | at most" of
docs/architecture.md allows (it parses, calls the library and prints; a
computation that grows it belongs in the library).

    check_cli_budget.py --rules docs/architecture.md --root .
"""
import pathlib
import re
import sys

sys.dont_write_bytecode = True  # nothing written into the sources
from house_plan import arguments, verdict  # noqa: E402 (beside this file)


def budget(rules):
    found = {}
    for line in pathlib.Path(rules).read_text().splitlines():
        row = re.match(r"^\| lines (in all|in one file)[^|]*\| (\d+) \|$", line.strip())
        if row:
            found[row.group(1)] = int(row.group(2))
    if set(found) != {"in all", "in one file"}:
        sys.exit(f"{rules}: no command line budget table (rows 'lines in all' and 'lines in one file')")
    return found


def main():
    args = arguments(__doc__)
    limits = budget(args.rules)
    files = sorted((pathlib.Path(args.root) / "apps/hetscale").glob("*.[ch]pp"))
    if not files:
        sys.exit(f"{args.root}/apps/hetscale: no source files")
    lines = {path.name: len(path.read_text().splitlines()) for path in files}
    findings = [f"apps/hetscale/{name}: {count} lines, over the {limits['in one file']} a file may hold"
                for name, count in lines.items() if count > limits["in one file"]]
    total = sum(lines.values())
    if total > limits["in all"]:
        findings.append(f"apps/hetscale: {total} lines in all, over the budget of {limits['in all']}: move a "
                        f"computation into the library")
    return verdict(findings, f"apps/hetscale: {total} lines in {len(files)} files (budget {limits['in all']}), the "
                             f"largest {max(lines.values())} (budget {limits['in one file']})")


if __name__ == "__main__":
    sys.exit(main())
