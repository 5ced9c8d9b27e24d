#!/usr/bin/env python3
"""Checks that the tic labels of gnuplot SVG figures do not overlap.

    check_label_spacing.py FIGURE.svg... [--labels-from FILE]

gnuplot writes each tic label as <g transform="translate(x,y) rotate(a)"
font-size="f" text-anchor="..."><text>label</text></g>. Labels on one row
(the same y), in x order, are checked pairwise:
- upright or slanted (a != 0): two parallel strips of text overlap when the
  distance across them, dx |sin a|, is under the font's height (f);
- horizontal (a = 0): the boxes, each about 0.6 f per character wide and
  placed by its anchor, must not overlap.
Only rows of three or more labels are checked (an axis of categories); the
figure passes when no pair overlaps. Prints one line per figure; exits 0 when
every figure passes, 1 otherwise, naming the first overlapping pair.
"""
import math
import re
import sys
from collections import defaultdict

LABEL = re.compile(
    r'<g transform="translate\(([-\d.]+),([-\d.]+)\)(?: rotate\(([-\d.]+)\))?"[^>]*font-size="([\d.]+)"[^>]*'
    r'text-anchor="(start|middle|end)"[^>]*>\s*<text>([^<]*)</text>')
CHARACTER_WIDTH = 0.6  # of the font size, DejaVu Sans's average


def labels_of(svg):
    rows = defaultdict(list)
    for x, y, angle, size, anchor, text in LABEL.findall(svg):
        rows[round(float(y), 1)].append((float(x), float(angle or 0), float(size), anchor, text))
    return [sorted(row) for row in rows.values() if len(row) >= 3]


def overlap(a, b):
    (xa, angle, size, anchor, text_a), (xb, _, _, _, text_b) = a, b
    if angle != 0:
        return abs(xb - xa) * abs(math.sin(math.radians(angle))) < size
    def span(x, text):
        width = CHARACTER_WIDTH * size * len(text)
        start = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        return start, start + width
    return span(xa, text_a)[1] > span(xb, text_b)[0]


def main(paths):
    failed = 0
    for path in paths:
        with open(path) as f:
            rows = labels_of(f.read())
        problem = None
        count = 0
        for row in rows:
            count += len(row)
            for a, b in zip(row, row[1:]):
                if overlap(a, b):
                    problem = (f"'{a[4]}' at x = {a[0]:g} and '{b[4]}' at x = {b[0]:g} overlap "
                               f"(rotated {a[1]:g}, font {a[2]:g})")
                    break
            if problem:
                break
        if problem:
            failed += 1
            print(f"FAIL {path}: {problem}")
        else:
            print(f"ok   {path}: {count} labels in {len(rows)} rows, none overlapping")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
