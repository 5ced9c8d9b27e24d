#!/usr/bin/env python3
"""The golden comparison: numbers within 1e-9 relative, text to the letter."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_golden import compare  # noqa: E402

GOLDEN = '{"coefficients": [0.5, -0.07803168650200763, 1e-05], "r2": 0.9987}\nN = 700: E_s 0.1204\n'


class CompareGolden(unittest.TestCase):
    def test_identical_text_agrees(self):
        self.assertIsNone(compare(GOLDEN, GOLDEN))

    def test_last_bits_of_a_fit_agree(self):
        # OpenBLAS's SkylakeX kernel against its Haswell one (3e-16 relative)
        self.assertIsNone(compare(GOLDEN, GOLDEN.replace("-0.07803168650200763", "-0.0780316865020074")))

    def test_a_real_change_of_a_number_is_refused(self):
        difference = compare(GOLDEN, GOLDEN.replace("-0.07803168650200763", "-0.07803176"))  # 1e-6 relative
        self.assertIn("number 1: expected -0.07803168650200763, got -0.07803176", difference)

    def test_a_printed_digit_is_refused(self):
        self.assertIsNotNone(compare(GOLDEN, GOLDEN.replace("0.1204", "0.1205")))

    def test_changed_text_is_refused(self):
        self.assertIn("text differs", compare(GOLDEN, GOLDEN.replace("E_s", "E_t")))

    def test_a_missing_number_is_refused(self):
        self.assertIsNotNone(compare(GOLDEN, GOLDEN.replace(", 1e-05", "")))

    def test_an_extra_number_is_refused(self):
        self.assertIsNotNone(compare(GOLDEN, GOLDEN + "1\n"))

    def test_zero_against_a_tiny_number(self):
        self.assertIsNone(compare("t = 0\n", "t = 1e-15\n"))
        self.assertIsNotNone(compare("t = 0\n", "t = 1e-9\n"))

    def test_the_command_exits_1_and_says_where(self):
        with tempfile.TemporaryDirectory() as folder:
            golden, actual = os.path.join(folder, "golden"), os.path.join(folder, "actual")
            with open(golden, "w") as file:
                file.write(GOLDEN)
            with open(actual, "w") as file:
                file.write(GOLDEN.replace("0.9987", "0.9986"))
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare_golden.py")
            run = subprocess.run([sys.executable, script, golden, actual], capture_output=True, text=True)
            self.assertEqual(run.returncode, 1)
            self.assertIn("expected 0.9987, got 0.9986", run.stderr)


if __name__ == "__main__":
    unittest.main()
