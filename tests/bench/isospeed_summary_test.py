#!/usr/bin/env python3
"""bench/isospeed_summary.py on rounds written here, with known answers."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HOME = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # nothing written into the sources
sys.path.insert(0, os.path.join(HOME, "bench"))
import isospeed_summary  # noqa: E402


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f)


def sweep(n):
    return {"target": {"E_s": 0.1, "N": n, "verified": {"N": n, "E_s": 0.1}}}


class MedianInterval(unittest.TestCase):
    def test_order_statistics_of_the_sign_test(self):
        values = list(range(12, 0, -1))  # any order
        # Twelve values: the 3rd and 10th smallest hold the median with 96 %.
        self.assertEqual(isospeed_summary.median_interval(values), (3, 10))
        # Six: only the smallest and largest (1 - 2/64 = 97 %).
        self.assertEqual(isospeed_summary.median_interval([5, 1, 4, 2, 6, 3]), (1, 6))
        # Five cannot reach 95 % (1 - 2/32 = 94 %).
        self.assertIsNone(isospeed_summary.median_interval([1, 2, 3, 4, 5]))


class Summary(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.dir = self.folder.name
        measured_c4 = [200, 210, 190, 200, 220, 180]
        predicted_c4 = [218, 200, 190, 230, 210, 170]  # +9 % -4.76 % 0 +15 % -4.55 % -5.56 %
        for r in range(6):
            round_dir = f"{self.dir}/round-{r + 1}"
            write(f"{round_dir}/sweep-ge-C2.json", sweep(100 + r))
            write(f"{round_dir}/sweep-ge-C4.json", sweep(measured_c4[r]))
            write(f"{round_dir}/sweep-ge-C8.json", {"target": {"E_s": 0.1, "N": 400}})  # not verified
            if r == 5:
                continue  # the base refused: no prediction this round
            write(f"{round_dir}/predicted-ge.json",
                  {"configurations": [{"name": "C2", "N": 100 + r}, {"name": "C4", "N": predicted_c4[r]},
                                      {"name": "C8", "N": 400}]})

    def tearDown(self):
        self.folder.cleanup()

    def test_medians_and_each_rounds_error(self):
        lines = isospeed_summary.summary(self.dir, 6, ["ge"]).splitlines()
        self.assertIn("6 rounds", lines[0])
        c2 = next(line for line in lines if line.startswith("ge     C2"))
        self.assertEqual(c2.split()[2:9], ["100", "101", "102", "103", "104", "105", "102"])
        self.assertIn("(the base)", c2)
        c4 = next(line for line in lines if line.startswith("ge     C4"))
        # Measured median of six: 200; predicted median of five: 210; +5 %.
        self.assertEqual(c4.split()[2:16],
                         ["200", "210", "190", "200", "220", "180", "200", "218", "200", "190", "230", "210", "-",
                          "210"])
        self.assertTrue(c4.endswith("+5.00%"), c4)
        c8 = next(line for line in lines if line.startswith("ge     C8"))
        self.assertIn("- - - - - -", c8)  # no verified N: no error
        self.assertFalse(c8.rstrip().endswith("%"), c8)
        each = next(line for line in lines if line.startswith("  ge C4:"))
        # Five rounds with both: errors +9, -4.76, 0, +15, -4.55 %.
        self.assertIn("+9.0% -4.8% +0.0% +15.0% -4.5%", each)
        self.assertIn("mean +2.94 %", each)
        self.assertIn("4 of 5 within 10 %", each)
        self.assertNotIn("interval", each)  # fewer than six rounds' errors
        self.assertFalse(any(line.startswith("  ge C8:") for line in lines))

    def test_the_interval_from_six_rounds(self):
        write(f"{self.dir}/round-6/predicted-ge.json", {"configurations": [{"name": "C4", "N": 198}]})
        each = next(line for line in isospeed_summary.summary(self.dir, 6, ["ge"]).splitlines()
                    if line.startswith("  ge C4:"))
        # Six errors: +9, -4.76, 0, +15, -4.55, +10 %: median +4.5 %, interval min to max.
        self.assertIn("median +4.50 %, 95 % interval -4.76 to +15.00 %", each)

    def test_usage(self):
        script = os.path.join(HOME, "bench", "isospeed_summary.py")
        for args in ([self.dir], [self.dir, "0", "ge"], [self.dir, "three", "ge"]):
            done = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
            self.assertEqual(done.returncode, 2)
            self.assertEqual(done.stdout, "")
            self.assertEqual(len(done.stderr.splitlines()), 1)
        done = subprocess.run([sys.executable, script, self.dir, "6", "ge"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("ge     C4", done.stdout)
        self.assertNotIn("goal", done.stdout)

    def test_check(self):
        script = os.path.join(HOME, "bench", "isospeed_summary.py")
        # C4 +5 % is within 10 %; C8 has no verified N: missed.
        self.assertEqual(isospeed_summary.goal_misses(self.dir, 6, ["ge"]), ["ge C8 (no median N' or N)"])
        done = subprocess.run([sys.executable, script, "--check", self.dir, "6", "ge"], capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("missed: ge C8 (no median N' or N)", done.stdout.splitlines()[-1])
        # C8 verified at 400 in every round and predicted 400: met.
        for r in range(6):
            write(f"{self.dir}/round-{r + 1}/sweep-ge-C8.json", sweep(400))
        done = subprocess.run([sys.executable, script, self.dir, "6", "ge", "--check"], capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.splitlines()[-1].endswith("median N measured: met"), done.stdout)
        # C4 measured 10 % lower in every round: the median's +16.67 % misses.
        for r, n in enumerate([180, 189, 171, 180, 198, 162]):
            write(f"{self.dir}/round-{r + 1}/sweep-ge-C4.json", sweep(n))
        self.assertEqual(isospeed_summary.goal_misses(self.dir, 6, ["ge"]), ["ge C4 (+16.67 %)"])


if __name__ == "__main__":
    unittest.main()
