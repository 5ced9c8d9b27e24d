#!/usr/bin/env python3
"""The house plan, checked: every #include "..." under ROOT/src and
ROOT/include/hetscale names a folder that the table "What each folder may
include" of docs/architecture.md allows.

    check_includes.py --rules docs/architecture.md --root .

Fails (exit 1, one line per finding on stderr) on an include the table does
not allow, on a folder under src/ or include/hetscale/ that the table does
not name, and on a row that names a folder not above it (an arrow back up).
"""
import pathlib
import re
import sys

sys.dont_write_bytecode = True  # nothing written into the sources
from house_plan import arguments, table_rows, verdict  # noqa: E402 (beside this file)

HEADING = "## What each folder may include"


def read_rules(path):
    """The table's rows in order: [(folder, [allowed folders])]."""
    return [(folder, allowed.split()) for folder, allowed in table_rows(path, HEADING, 2)]


def included_folder(target, folders):
    """The folder an include names ("hetscale/record/sweep.hpp", or a private
    "io/strict_json.hpp"), or None for an include of no folder ("cli.hpp")."""
    parts = target.split("/")
    if parts[0] == "hetscale" and len(parts) > 2:
        return parts[1]
    if len(parts) > 1 and parts[0] in folders:
        return parts[0]
    return None


def main():
    args = arguments(__doc__)
    rows = read_rules(args.rules)
    order = [folder for folder, _ in rows]
    allowed = {folder: set(deps) | {folder} for folder, deps in rows}
    findings = []
    for position, (folder, deps) in enumerate(rows):
        for dep in deps:
            if dep not in order[:position]:
                findings.append(f"{args.rules}: row '{folder}' names '{dep}', which does not stand above it")
    root = pathlib.Path(args.root)
    present = set()
    for base in (root / "src", root / "include" / "hetscale"):
        if base.is_dir():
            present |= {entry.name for entry in base.iterdir() if entry.is_dir()}
    for folder in sorted(present - set(order)):
        findings.append(f"{args.rules}: folder '{folder}' (src/ or include/hetscale/) has no row in the table")
    files = 0
    for base in (root / "src", root / "include" / "hetscale"):
        for path in sorted(base.rglob("*")) if base.is_dir() else []:
            if path.suffix not in (".cpp", ".hpp", ".h") or not path.is_file():
                continue
            files += 1
            folder = path.relative_to(base).parts[0]
            if folder not in allowed:
                continue  # said above
            for number, line in enumerate(path.read_text().split("\n"), 1):
                match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not match:
                    continue
                target = included_folder(match.group(1), set(order) | present)
                if target is not None and target not in allowed[folder]:
                    findings.append(f"{path.relative_to(root)}:{number}: {folder}/ includes \"{match.group(1)}\"; "
                                    f"{folder}/ may include only {' '.join(sorted(allowed[folder] - {folder})) or 'itself'}")
    return verdict(findings, f"{files} files under src/ and include/hetscale/ include only what "
                             f"docs/architecture.md allows ({len(order)} folders)")


if __name__ == "__main__":
    sys.exit(main())
