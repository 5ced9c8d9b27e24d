#!/usr/bin/env python3
"""Runs every command block of the README as written (SimGrid's habit of
examples that are tests), so the README cannot drift from what hetscale does.

    run_readme_commands.py SOURCE_DIR HETSCALE

Every ```sh block runs, in order, in one bash with `set -euo pipefail`, from
SOURCE_DIR, with HOME set to a fresh folder (the README's work folder is
~/hetscale-work), unless the line before it is `<!-- readme-test: skip ... -->`
(which says why). The README's `B=$PWD/build/apps/hetscale/hetscale` names
the hetscale of `make`; when the tested build is elsewhere, HETSCALE replaces
that path (and `$PWD/build/` that build's folder), and this says so. What must hold: every block exits 0, and the
source tree gains or loses no file (outputs go to the work folder).
"""
import os
import re
import subprocess
import sys
import tempfile

README_BINARY = "$PWD/build/apps/hetscale/hetscale"
README_BUILD = "$PWD/build/"  # the build of `make`: its other programs (the stencil)
SKIP = re.compile(r"^<!-- readme-test: skip .*-->$")


def blocks(readme):
    lines = readme.splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start = i + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            if not SKIP.match(previous.strip()):
                found.append((start + 1, "\n".join(lines[start:end])))
            i = end + 1
        else:
            i += 1
    return found


def source_files(root):
    """Every file under root, leaving out .git and build folders (a CMakeCache.txt marks one)."""
    files = set()
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != ".git"
                         and not os.path.exists(os.path.join(folder, d, "CMakeCache.txt"))]
        files.update(os.path.relpath(os.path.join(folder, name), root) for name in names)
    return files


def main(source, hetscale):
    with open(os.path.join(source, "README.md")) as f:
        found = blocks(f.read())
    if not found:
        print("README.md has no ```sh block to run", file=sys.stderr)
        return 1
    script = ["set -euo pipefail"]
    for line, text in found:
        if README_BINARY in text and os.path.realpath(hetscale) != os.path.realpath(
                os.path.join(source, "build/apps/hetscale/hetscale")):
            print(f"README line {line}: {README_BINARY} is {hetscale} in this build")
            build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(hetscale))))
            text = text.replace(README_BINARY, hetscale).replace(README_BUILD, build + "/")
        script.append(f'echo "--- README.md line {line}" >&2')
        script.append(text)
    before = source_files(source)
    with tempfile.TemporaryDirectory(prefix="hetscale-readme-") as home:
        # As a new user's shell: what Open MPI needs as root must come from the README.
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPI_ALLOW_RUN_AS_ROOT")}
        env.update(HOME=home, HETSCALE_PROGRESS="never")
        result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=source, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        written = sorted(os.listdir(os.path.join(home, "hetscale-work"))) if os.path.isdir(
            os.path.join(home, "hetscale-work")) else []
    after = source_files(source)
    problems = []
    if result.returncode != 0:
        last = [l for l in result.stderr.splitlines() if l.startswith("--- README.md line")]
        problems.append(f"the README block at {last[-1][4:] if last else 'the start'} failed with exit code "
                        f"{result.returncode}:\n{result.stderr[-3000:]}")
    if after != before:
        problems.append(f"the README's commands changed the source tree: added {sorted(after - before)}, "
                        f"removed {sorted(before - after)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{len(found)} README blocks ran; the work folder holds {len(written)} files: {', '.join(written)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
