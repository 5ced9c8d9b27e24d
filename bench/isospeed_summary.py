#!/usr/bin/env python3
"""The summary of bench/isospeed_experiment: N' predicted against N measured.

    isospeed_summary.py OUT_DIR ROUNDS KERNEL... [--check]

Per kernel and configuration, the N measured in each round (the sweep's
verified N, OUT_DIR/round-R/sweep-KERNEL-CONF.json) and the N' predicted
from that round's steps (OUT_DIR/round-R/predicted-KERNEL.json); their
medians over the rounds and the median prediction's error against the median
measurement. Then each round's N' against the same round's N: mean, sd,
how many within 10 %, and the median of those errors with a distribution-free
95 % confidence interval (order statistics; from 6 rounds on), which says how
far the prediction's systematic error can be from the rounds' scatter alone.
A round whose sweep or prediction is missing shows as '-'.

With --check, the goal (each median N' within 10 % of the median
N measured, C4 and C8 of every kernel) is said met or missed, and a miss
exits 1.
"""
import json
import math
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def median_interval(values, confidence=0.95):
    """The order statistics (low, high) around the median of `values` that
    hold the true median with at least `confidence` (binomial, sign test);
    None below the fewest values that can."""
    n = len(values)
    ordered = sorted(values)
    # The largest k with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2.
    tail, k = 0.0, 0
    while k < n:
        next_tail = tail + math.comb(n, k) / 2**n
        if next_tail > (1 - confidence) / 2:
            break
        tail, k = next_tail, k + 1
    if k == 0:
        return None
    return ordered[k - 1], ordered[n - k]


def shown(size):
    """A size as the summary prints it: whole, or '-' when missing."""
    return "-" if size is None else "%.0f" % size


def measured_and_predicted(out_dir, rounds, kernel, configuration):
    measured, predicted = [], []
    for r in range(1, rounds + 1):
        sweep = load(f"{out_dir}/round-{r}/sweep-{kernel}-{configuration}.json") or {}
        verified = (sweep.get("target") or {}).get("verified")
        measured.append(verified["N"] if verified else None)
        if configuration == "C2":
            continue  # the base: nothing predicted
        prediction = load(f"{out_dir}/round-{r}/predicted-{kernel}.json") or {}
        sizes = [c["N"] for c in prediction.get("configurations", []) if c["name"] == configuration]
        predicted.append(sizes[0] if sizes else None)
    return measured, predicted


def median_error(measured, predicted):
    """The medians of the known sizes and the median prediction's error
    against the median measurement (None where either is unknown)."""
    known_measured = [v for v in measured if v is not None]
    known_predicted = [v for v in predicted if v is not None]
    median_measured = statistics.median(known_measured) if known_measured else None
    median_predicted = statistics.median(known_predicted) if known_predicted else None
    error = median_predicted / median_measured - 1 if median_measured and median_predicted else None
    return median_measured, median_predicted, error


def goal_misses(out_dir, rounds, kernels, within=0.10):
    """The predicted configurations whose median N' is not within `within`
    of the median N measured (or has no error to judge), as printed."""
    misses = []
    for kernel in kernels:
        for configuration in ("C4", "C8"):
            *_, error = median_error(*measured_and_predicted(out_dir, rounds, kernel, configuration))
            if error is None:
                misses.append(f"{kernel} {configuration} (no median N' or N)")
            elif abs(error) > within:
                misses.append(f"{kernel} {configuration} ({100 * error:+.2f} %)")
    return misses


def summary(out_dir, rounds, kernels):
    lines = [f"N' predicted from the steps against the N measured, {rounds} rounds (median over the rounds):",
             f"{'kernel':6} {'conf':4} {'N measured, each round':28} {'median':>7} "
             f"{'N' + chr(39) + ' predicted, each round':28} {'median':>7} {'error':>8}"]
    round_errors = []
    for kernel in kernels:
        for configuration in ("C2", "C4", "C8"):
            measured, predicted = measured_and_predicted(out_dir, rounds, kernel, configuration)
            median_measured, median_predicted, error = median_error(measured, predicted)
            # Two decimals: -10.03 % is outside 10 %, which one decimal hides.
            error = "" if error is None else "%+7.2f%%" % (100 * error)
            predicted_shown = " ".join(map(shown, predicted)) if configuration != "C2" else "(the base)"
            lines.append(f"{kernel:6} {configuration:4} {' '.join(map(shown, measured)):28} "
                         f"{shown(median_measured):>7} {predicted_shown:28} {shown(median_predicted):>7} {error:>8}")
            if configuration == "C2":
                continue
            # Each round against its own measured N: how far one round's
            # prediction scatters, which the median over the rounds narrows.
            errors = [p / m - 1 for m, p in zip(measured, predicted) if m and p]
            if not errors:
                continue
            spread = " sd %.2f %%," % (100 * statistics.stdev(errors)) if len(errors) > 1 else ""
            line = (f"{kernel} {configuration}: " + " ".join("%+.1f%%" % (100 * e) for e in errors) +
                    f" (mean {100 * statistics.mean(errors):+.2f} %,{spread} "
                    f"{sum(abs(e) <= 0.1 for e in errors)} of {len(errors)} within 10 %")
            interval = median_interval(errors)  # none from fewer than six rounds
            if interval:
                line += (f"; median {100 * statistics.median(errors):+.2f} %, 95 % interval "
                         f"{100 * interval[0]:+.2f} to {100 * interval[1]:+.2f} %")
            round_errors.append(line + ")")
    if round_errors:
        lines += ["", "Each round's N' against the same round's N measured:"]
        lines += ["  " + line for line in round_errors]
    return "\n".join(lines)


def main(argv):
    check = "--check" in argv[1:]
    argv = [arg for arg in argv if arg != "--check"]
    if len(argv) < 4 or not argv[2].isdigit() or int(argv[2]) < 1:
        print("usage: isospeed_summary.py OUT_DIR ROUNDS KERNEL... [--check] (ROUNDS a whole number of at least 1)",
              file=sys.stderr)
        return 2
    out_dir, rounds, kernels = argv[1], int(argv[2]), argv[3:]
    print("\n" + summary(out_dir, rounds, kernels))
    if not check:
        return 0
    misses = goal_misses(out_dir, rounds, kernels)
    print("\ngoal: every median N' within 10 % of the median N measured: " +
          ("met" if not misses else "missed: " + ", ".join(misses)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
