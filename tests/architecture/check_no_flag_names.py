#!/usr/bin/env python3
"""No option names in the library, checked: no string literal under ROOT/src
and ROOT/include starts with "--" and a letter (an option of the command line,
such as --speeds), and no comment quotes one, except the other programs'
arguments that the table "argument | program | where" of docs/architecture.md
allows (SimGrid's --cfg=, gnuplot's --version).

    check_no_flag_names.py --rules docs/architecture.md --root .

Fails (exit 1, one line per finding on stderr: file, line, the literal) when
one is found. The library names a setting by its word (speeds); the command
line says it as its option (apps/hetscale/cli.hpp, with_options_named).
"""
import pathlib
import re
import sys

sys.dont_write_bytecode = True  # nothing written into the sources
from house_plan import arguments, table_rows, verdict  # noqa: E402 (beside this file)

HEADING = "## No option names in the library"
SOURCES = (".c", ".cc", ".cpp", ".h", ".hh", ".hpp")
OPTION = re.compile(r"--[A-Za-z]")
QUOTED_OPTION = re.compile(r'"(--[A-Za-z][^"\s]*)')
RAW_PREFIXES = ("R", "u8R", "uR", "UR", "LR")


def read_allowed(path):
    """The table's rows: [(argument prefix, where: a file, or a folder ending in /)]."""
    return [(argument.strip("`"), where.strip("`")) for argument, _, where in table_rows(path, HEADING, 3)]


def literals_and_comments(text):
    """The string literals (their contents) and the comments of C or C++
    source `text`, each as (kind, line, text); character literals, digit
    separators (1'000) and raw strings (R"(...)") are told apart."""
    found = []
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end == -1 else end
            found.append(("comment", line, text[i:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end == -1 else end + 2
            found.append(("comment", line, text[i:end]))
            line += text.count("\n", i, end)
            i = end
        elif c in "\"'":
            start = i
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
                start -= 1
            before = text[start:i]
            if c == "'" and before[:1].isdigit():  # a digit separator
                i += 1
            elif c == '"' and before in RAW_PREFIXES:
                open_paren = text.find("(", i)
                closing = ")" + text[i + 1:open_paren] + '"'
                end = text.find(closing, open_paren)
                end = n if end == -1 else end
                found.append(("literal", line, text[open_paren + 1:end]))
                line += text.count("\n", i, end)
                i = end + len(closing)
            else:
                end = i + 1
                while end < n and text[end] != c and text[end] != "\n":
                    end += 2 if text[end] == "\\" else 1
                if c == '"':
                    found.append(("literal", line, text[i + 1:end]))
                i = end + 1
        else:
            i += 1
    return found


def allowed_here(argument, relative, allowed):
    """Whether a row of the table allows `argument` in the file `relative`."""
    return any(argument.startswith(prefix) and (relative == where or where.endswith("/") and relative.startswith(where))
               for prefix, where in allowed)


def findings_in(path, relative, allowed):
    """A line for each option that `path` (`relative` to the root) spells."""
    findings = []
    for kind, line, text in literals_and_comments(path.read_text(errors="replace")):
        if kind == "literal":
            options = [(line, text.split()[0])] if OPTION.match(text) else []
        else:
            options = [(line + text.count("\n", 0, quoted.start()), quoted.group(1))
                       for quoted in QUOTED_OPTION.finditer(text)]
        for at, option in options:
            if allowed_here(option, relative, allowed):
                continue
            what = "the string" if kind == "literal" else "a comment quotes"
            findings.append(f'{relative}:{at}: {what} "{option}", an option of the command line: name the '
                            f"setting by its word and let the command line say it as its option "
                            f"(with_options_named), or say the option in words")
    return findings


def main():
    args = arguments(__doc__)
    allowed = read_allowed(args.rules)
    root = pathlib.Path(args.root)
    files = sorted(path for folder in ("src", "include") for path in (root / folder).rglob("*")
                   if path.is_file() and path.suffix in SOURCES)
    if not files:
        sys.exit(f"{root}: no sources under src/ or include/")
    findings = [finding for path in files for finding in findings_in(path, path.relative_to(root).as_posix(), allowed)]
    return verdict(findings, f"src/, include/: no option of the command line in {len(files)} files "
                             f"({len(allowed)} other programs' arguments allowed)")


if __name__ == "__main__":
    sys.exit(main())
