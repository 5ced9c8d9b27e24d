#!/usr/bin/env python3
"""Compares a command's output with its golden file.

    compare_golden.py GOLDEN ACTUAL

The text between numbers must match to the letter, and so must the count of
numbers; each pair of numbers must agree within a relative tolerance of 1e-9
(absolute 1e-12 near zero). Numbers computed through BLAS, LAPACK, FFTW, GSL
or libm may differ in their last bits from one processor to the next
(OpenBLAS picks its kernels by processor, glibc's libm has FMA variants):
-0.0780316865020074 on a machine with AVX-512 is -0.07803168650200763 on
one without. A golden file holds the digits of one machine; any other
machine must agree with them to 9 significant digits, not to every bit.

Exit 0 when they agree; 1, with the first difference on stderr, when not.
"""
import re
import sys

RELATIVE_TOLERANCE = 1e-9
ABSOLUTE_TOLERANCE = 1e-12
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def split(text):
    """The text between numbers, and the numbers."""
    return NUMBER.split(text), NUMBER.findall(text)


def close(a, b):
    x, y = float(a), float(b)
    if x == y:
        return True
    return abs(x - y) <= max(RELATIVE_TOLERANCE * max(abs(x), abs(y)), ABSOLUTE_TOLERANCE)


def line_of(text, number_index):
    """The line holding the number_index-th number of text."""
    for index, match in enumerate(NUMBER.finditer(text)):
        if index == number_index:
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            return text[start:end if end >= 0 else len(text)]
    return ""


def compare(golden, actual):
    """None when they agree, else a sentence saying where they differ."""
    golden_text, golden_numbers = split(golden)
    actual_text, actual_numbers = split(actual)
    for index, (expected, got) in enumerate(zip(golden_text, actual_text)):
        if expected != got:
            return f"text differs near number {index}: expected {expected!r}, got {got!r}"
    if len(golden_numbers) != len(actual_numbers):
        return f"{len(actual_numbers)} numbers, the golden file has {len(golden_numbers)}"
    for index, (expected, got) in enumerate(zip(golden_numbers, actual_numbers)):
        if not close(expected, got):
            return (f"number {index}: expected {expected}, got {got} (relative tolerance {RELATIVE_TOLERANCE:g})\n"
                    f"  golden: {line_of(golden, index)}\n  actual: {line_of(actual, index)}")
    return None


def main(argv):
    if len(argv) != 3:
        print("usage: compare_golden.py GOLDEN ACTUAL", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as golden, open(argv[2], encoding="utf-8") as actual:
        difference = compare(golden.read(), actual.read())
    if difference:
        print(difference, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
