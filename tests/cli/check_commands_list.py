#!/usr/bin/env python3
"""scripts/generate-cli-commands on lists it must refuse: each stops with exit
code 2 and one line naming the list's line (or the command) and what is
wrong, and writes nothing; the project's own list makes a table.

    check_commands_list.py GENERATOR LIST
"""
import pathlib
import subprocess
import sys
import tempfile

BAD = {
    "not a line": ("command x\n  run\n  frobnicate y\n", r"list:3: 'frobnicate': not a line of the list"),
    "bad option": ("command x\n  run\n  --at TEXTS | the scale\n", "list:3: not an option"),
    "unknown set": ("command x\n  run\n  use nothing\n", "list:3: use nothing: no set of that name above"),
    "no run line": ("command x\n  --at TEXT | the scale\n", "x: a command with subcommands has no run/mpi line"),
    "rule on no option": ("command x\n  run\n  --a TEXT | a\n  refuse --a with --b | no\n",
                          "x: refuse: --b is not an option of the command"),
}


def main(generator, project_list):
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for name, (text, expected) in BAD.items():
            listed = pathlib.Path(folder) / "list"
            listed.write_text(text)
            out = pathlib.Path(folder) / f"{name.replace(' ', '-')}.cpp"
            done = subprocess.run([sys.executable, generator, str(listed), str(out)], capture_output=True, text=True)
            lines = done.stderr.splitlines()
            if done.returncode != 2 or len(lines) != 1 or expected not in lines[0] or out.exists():
                failures.append(f"{name}: exit {done.returncode}, stderr {done.stderr!r}, wrote {out.exists()}")
        out = pathlib.Path(folder) / "table.cpp"
        done = subprocess.run([sys.executable, generator, project_list, str(out)], capture_output=True, text=True)
        if done.returncode != 0 or "std::vector<CommandSpec> command_table()" not in out.read_text():
            failures.append(f"the project's list: exit {done.returncode}, {done.stderr!r}")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
