#!/usr/bin/env python3
"""Every command's --help against its golden, found by walking the commands
`hetscale --help` lists (and theirs, and so on), and `hetscale` alone.

  check_help.py HETSCALE GOLDEN_DIR           compare; exit 1 naming each difference
  check_help.py HETSCALE GOLDEN_DIR --write   write the goldens (after a help text changed on purpose)

A command with no golden, or a golden with no command, is a difference too.
"""
import difflib
import pathlib
import re
import subprocess
import sys

SUBCOMMAND = re.compile(r"^  ([a-z][a-z+-]*) {2,}\S")


def run(hetscale, words):
    done = subprocess.run([hetscale, *words], capture_output=True, text=True, timeout=60)
    if done.returncode != 0 or done.stderr:
        sys.exit(f"check_help: hetscale {' '.join(words)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def subcommands(help_text):
    """The subcommands a help text lists: names under any heading but Positionals and option groups."""
    names, heading = [], ""
    for line in help_text.splitlines():
        if line and not line.startswith(" "):
            heading = line
            continue
        match = SUBCOMMAND.match(line)
        if match and heading != "Positionals:":
            names.append(match.group(1))
    return names


def helps(hetscale):
    """{golden name: text} for `hetscale` alone and every command's --help."""
    found = {"no-arguments": run(hetscale, [])}
    pending = [[]]
    while pending:
        words = pending.pop(0)
        text = run(hetscale, [*words, "--help"])
        found["_".join(["hetscale", *words])] = text
        pending += [[*words, name] for name in subcommands(text)]
    return found


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--write"):
        sys.exit(__doc__)
    hetscale, golden_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    found = helps(hetscale)
    if len(sys.argv) == 4:
        for old in golden_dir.glob("*.txt"):
            old.unlink()
        for name, text in found.items():
            (golden_dir / f"{name}.txt").write_text(text)
        print(f"check_help: wrote {len(found)} goldens in {golden_dir}")
        return
    problems = []
    goldens = {path.stem: path for path in golden_dir.glob("*.txt")}
    for name in sorted(set(goldens) - set(found)):
        problems.append(f"{name}: a golden for no command (remove {goldens[name]})")
    for name, text in sorted(found.items()):
        if name not in goldens:
            problems.append(f"{name}: no golden (write them with --write)")
            continue
        expected = goldens[name].read_text()
        if text != expected:
            diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now"))
            problems.append(f"{name}: differs from {goldens[name]}\n{diff}")
    if problems:
        sys.exit("check_help:\n" + "\n".join(problems))
    print(f"check_help: {len(found)} help texts as their goldens")


if __name__ == "__main__":
    main()
