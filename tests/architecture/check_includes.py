#!/usr/bin/env python3
"""The house plan, checked: every #include "..." under ROOT/src and
ROOT/include/hetscale names a folder that the table "What each folder may
include" of docs/architecture.md allows.

    check_includes.py --rules docs/architecture.md --root .

Fails (exit 1, one line per finding on stderr) on an include the table does
not allow, on a folder under src/ or include/hetscale/ that the table does
not name, and on a row that names a folder not above it (an arrow back up).
"""
import argparse
import pathlib
import re
import sys

HEADING = "## What each folder may include"


def read_rules(path):
    """The table's rows in order: [(folder, [allowed folders])]."""
    text = pathlib.Path(path).read_text()
    if HEADING not in text:
        sys.exit(f"{path}: no section '{HEADING}'")
    rows = []
    for line in text[text.index(HEADING):].split("\n")[1:]:
        if line.startswith("## "):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 2 or cells[0] in ("folder", "---"):
            continue
        rows.append((cells[0], cells[1].split()))
    if not rows:
        sys.exit(f"{path}: the section '{HEADING}' holds no table rows")
    return rows


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
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
    for finding in findings:
        print(finding, file=sys.stderr)
    if findings:
        return 1
    print(f"{files} files under src/ and include/hetscale/ include only what docs/architecture.md allows "
          f"({len(order)} folders)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
