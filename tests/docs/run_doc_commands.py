#!/usr/bin/env python3
"""Runs the command blocks of one doc page as written, and compares what they
print with the output the page shows, so that the docs cannot drift from what
hetscale does (tests/docs/run_readme_commands.py does the same for README.md).

    run_doc_commands.py SOURCE_DIR HETSCALE PAGE

PAGE is docs/NAME.md (or NAME). CTest runs every page of docs/ that has a
```sh block as doc_commands.NAME (tests/docs/doc_tests.cmake), except
docs/experiments.md, whose commands are the benchmarks of `make bench`.

The convention, for the fenced blocks of a page:

- ```sh: a runnable example. It runs, as written, and must work on this
  machine in seconds (a 2-core machine, as root, after `make`): every command
  as the current hetscale has it, small sizes. No [optional] parts and no
  placeholders such as FILE or ./app.
- ``` with no language, or ```text: a synopsis (`[--json]`, `FILE`, `N`),
  a program's output shown for reading, or a layout. Not run. Other languages
  (```json, ```c, ```cpp, ```cmake) are not run either.
- ```output, or ```output tolerance=T: what the ```sh block before it (the
  fenced block right before; prose may come between) prints on stdout, checked
  against what it printed. Lines are compared one by one, with every run of
  spaces counted as one and spaces at either end left out. Numbers match when
  |printed - shown| <= T x max(|printed|, |shown|): T = 0 (the default) asks
  for the same number (1.50 and 1.5 are the same), T = 0.5 allows a factor of
  2 either way, T = 0.9 a factor of 10, which suits timings on a shared
  machine. A line `...` stands for any number of lines (none too); `...`
  inside a line for any text within it (a host name, a path, a figure that
  moves by more than the tolerance or changes sign from run to run). A line
  of dashes (a table's rule) matches one of any length, as the columns'
  widths follow the figures. Everything else must be as shown: the words,
  the order of the lines.

How a page runs: its ```sh blocks, in order, in one bash with
`set -euo pipefail` (a command that fails ends the page), with HOME a fresh
folder and after this preamble, the README's set-up block (the names the
docs' blocks use, and a work folder outside the source tree for what they
write):

    B=<HETSCALE>                       # hetscale
    X=<SOURCE_DIR>/examples D=<SOURCE_DIR>/data
    P=<the build of HETSCALE>/tests/stencil   # the 1-D stencil MPI program
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mkdir -p ~/hetscale-work && cd ~/hetscale-work

Blocks run where the block before left off (same folder, variables and
functions), stdin /dev/null, HETSCALE_PROGRESS=never. Each block's stdout is
kept for its ```output block (and shown when the block fails), its stderr
shown when it fails. Open MPI with more ranks than cores needs
`--oversubscribe`, as in the README: the page writes it. Each page says in one sentence, before its
first ```sh block, that its blocks run after the README's set-up block.

What must hold: every block exits 0, every ```output block matches, and the
source tree gains or loses no file (the commands write in the work folder).
The time each block took is printed.
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile
import time

from run_readme_commands import source_files  # beside this file

FENCE = re.compile(r"^\s*```(.*)$")
# A number: not glued to a word or another number on its left or right
# (v4.1.4, mm-order500 and 3.4s are text).
NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")
NUMBER_IN_TEXT = re.compile(r"(?<![\w.])" + NUMBER.pattern)
RULE = re.compile(r"^-{3,}$")
MARK = "@@doc-test"


class PageError(Exception):
    """The page breaks the convention (not a failure of its commands)."""


def blocks(text, page):
    """The page's fenced blocks: (line of the fence, language, attributes, text)."""
    lines = text.splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        words = opening.group(1).split()
        language, attributes = (words[0], words[1:]) if words else ("", [])
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise PageError(f"{page} line {i + 1}: the block opened here is never closed")
        found.append((i + 1, language, attributes, "\n".join(lines[i + 1:end])))
        i = end + 1
    return found


def examples(found, page):
    """The ```sh blocks, each with the ```output block that shows what it prints (or None)."""
    runnable, previous = [], None
    for line, language, attributes, text in found:
        if language == "sh":
            if attributes:
                raise PageError(f"{page} line {line}: ```sh takes nothing after it, got {' '.join(attributes)!r}")
            runnable.append({"line": line, "text": text, "output": None})
        elif language == "output":
            if previous is None or previous[1] != "sh":
                raise PageError(f"{page} line {line}: an ```output block must follow a ```sh block "
                                "(the output of the commands right before it)")
            tolerance = 0.0
            for attribute in attributes:
                key, _, value = attribute.partition("=")
                try:
                    tolerance = float(value) if key == "tolerance" else None
                except ValueError:
                    tolerance = None
                if tolerance is None or not tolerance >= 0:
                    raise PageError(f"{page} line {line}: ```output takes tolerance=T, T a number >= 0, "
                                    f"got {attribute!r}")
            runnable[-1]["output"] = {"line": line, "text": text, "tolerance": tolerance}
        previous = (line, language)
    return runnable


def normalized(line):
    return " ".join(line.split())


def pieces(line):
    """A shown line as pieces: ("text", s), ("number", value), ("any",) for `...`."""
    result = []
    for k, part in enumerate(line.split("...")):
        if k:
            result.append(("any",))
        position = 0
        for number in NUMBER_IN_TEXT.finditer(part):
            if number.start() > position:
                result.append(("text", part[position:number.start()]))
            result.append(("number", float(number.group())))
            position = number.end()
        if position < len(part):
            result.append(("text", part[position:]))
    return result


def close(printed, shown, tolerance):
    return abs(printed - shown) <= tolerance * max(abs(printed), abs(shown))


def line_matches(shown, printed, tolerance):
    if RULE.match(shown) and RULE.match(printed):
        return True  # a table's rule, as wide as its columns
    shown_pieces, memo = pieces(shown), {}

    def match(i, position):
        key = (i, position)
        if key not in memo:
            memo[key] = step(i, position)
        return memo[key]

    def step(i, position):
        if i == len(shown_pieces):
            return position == len(printed)
        piece = shown_pieces[i]
        if piece[0] == "any":
            return any(match(i + 1, p) for p in range(position, len(printed) + 1))
        if piece[0] == "text":
            return printed.startswith(piece[1], position) and match(i + 1, position + len(piece[1]))
        number = NUMBER.match(printed, position)
        return bool(number) and close(float(number.group()), piece[1], tolerance) and match(i + 1, number.end())

    return match(0, 0)


def output_matches(shown_text, printed_text, tolerance):
    def trimmed(text):
        lines = [normalized(l) for l in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    shown, printed, memo = trimmed(shown_text), trimmed(printed_text), {}

    def match(i, j):
        key = (i, j)
        if key not in memo:
            if i == len(shown):
                memo[key] = j == len(printed)
            elif shown[i] == "...":
                memo[key] = any(match(i + 1, k) for k in range(j, len(printed) + 1))
            else:
                memo[key] = j < len(printed) and line_matches(shown[i], printed[j], tolerance) and match(i + 1, j + 1)
        return memo[key]

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * (len(shown) + len(printed)) + 1000))
    return match(0, 0)


def quoted(path):
    return "'" + path.replace("'", "'\\''") + "'"


def main(source, hetscale, page_argument):
    source, hetscale = os.path.realpath(source), os.path.realpath(hetscale)
    page = page_argument if page_argument.endswith(".md") else os.path.join("docs", page_argument + ".md")
    path = page if os.path.isabs(page) else os.path.join(source, page)
    name = os.path.relpath(path, source)
    build = os.path.dirname(os.path.dirname(os.path.dirname(hetscale)))
    try:
        with open(path) as f:
            runnable = examples(blocks(f.read(), name), name)
    except (OSError, PageError) as error:
        print(error, file=sys.stderr)
        return 1
    if not runnable:
        print(f"{name} has no ```sh block to run", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(prefix="hetscale-doc-") as home, \
            tempfile.TemporaryDirectory(prefix="hetscale-doc-out-") as outputs:
        script = [
            "set -euo pipefail",
            f"B={quoted(hetscale)}",
            f"X={quoted(os.path.join(source, 'examples'))} D={quoted(os.path.join(source, 'data'))}",
            f"P={quoted(os.path.join(build, 'tests', 'stencil'))}",
            "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
            "mkdir -p ~/hetscale-work && cd ~/hetscale-work",
        ]
        for k, block in enumerate(runnable):
            script.append(f'echo "{MARK} {k} $(date +%s.%N)" >&2')
            script.append("{")
            script.append(block["text"])
            script.append(f"}} > {quoted(os.path.join(outputs, f'{k}.out'))}")
        script.append(f'echo "{MARK} end $(date +%s.%N)" >&2')

        before = source_files(source)
        # As a new user's shell: what Open MPI needs as root comes from the preamble.
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPI_ALLOW_RUN_AS_ROOT")}
        env.update(HOME=home, HETSCALE_PROGRESS="never")
        started = time.monotonic()
        result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=source, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.monotonic() - started
        after = source_files(source)

        marks, stderr = [], []
        for line in result.stderr.splitlines():
            if line.startswith(MARK + " "):
                _, which, at = line.split()
                marks.append((which, float(at)))
            else:
                stderr.append(line)
        printed = []
        for k in range(len(runnable)):
            try:
                with open(os.path.join(outputs, f"{k}.out"), errors="replace") as f:
                    printed.append(f.read())
            except OSError:
                printed.append(None)

    problems, ran = [], len(runnable)
    if result.returncode != 0:
        ran = int(marks[-1][0]) if marks and marks[-1][0] != "end" else 0
        where = f"the block at {name} line {runnable[ran]['line']}" if marks else "the preamble"
        problems.append(f"{where} failed with exit code {result.returncode}\n"
                        f"its stdout (the end):\n{(printed[ran] or '')[-2000:]}\nstderr (the end):\n"
                        + "\n".join(stderr)[-3000:])
    for k, block in enumerate(runnable[:ran]):
        output = block["output"]
        if output is None or printed[k] is None:
            continue
        if not output_matches(output["text"], printed[k], output["tolerance"]):
            diff = "\n".join(difflib.unified_diff(output["text"].splitlines(), printed[k].splitlines(),
                                                  "shown", "printed", lineterm=""))
            problems.append(f"the output shown at {name} line {output['line']} (tolerance "
                            f"{output['tolerance']:g}) is not what the block at line {block['line']} printed:\n"
                            f"{diff}")
    if after != before:
        problems.append(f"the commands of {name} changed the source tree: added {sorted(after - before)}, "
                        f"removed {sorted(before - after)}")

    times = {}
    for (which, at), (_, next_at) in zip(marks, marks[1:]):
        times[int(which)] = next_at - at
    for k, block in enumerate(runnable):
        if k in times:
            checked = "" if block["output"] is None else (
                f", output compared (tolerance {block['output']['tolerance']:g})")
            print(f"{name} line {block['line']}: ran in {times[k]:.1f} s{checked}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        shown = sum(1 for block in runnable if block["output"] is not None)
        print(f"{name}: {len(runnable)} block{'s' * (len(runnable) != 1)} ran, {shown} "
              f"output{'s' * (shown != 1)} matched, {elapsed:.1f} s in all")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
