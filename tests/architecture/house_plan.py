"""What the checkers of the house plan (docs/architecture.md) share: their
arguments, a table of the plan read, and their verdict said."""
import argparse
import pathlib
import sys


def arguments(doc):
    """--rules (docs/architecture.md) and --root (the project), parsed; `doc`
    is the checker's docstring, its first paragraph the help's description."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--rules", required=True)
    parser.add_argument("--root", required=True)
    return parser.parse_args()


def table_rows(path, heading, columns):
    """The cells of the rows of `columns` cells of the table in the section
    `heading` of `path`, its header and rule left out; exits naming the file
    when there is no such section or row."""
    text = pathlib.Path(path).read_text()
    if heading not in text:
        sys.exit(f"{path}: no section '{heading}'")
    rows = []
    for line in text[text.index(heading):].split("\n")[1:]:
        if line.startswith("## "):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == columns and not all(set(cell) <= {"-"} for cell in cells):
            rows.append(cells)
    if len(rows) < 2:
        sys.exit(f"{path}: the section '{heading}' holds no table rows")
    return rows[1:]


def verdict(findings, summary):
    """Each finding on a line of stderr and exit code 1; with none, the
    summary on stdout and 0."""
    for finding in findings:
        print(finding, file=sys.stderr)
    if findings:
        return 1
    print(summary)
    return 0
