#!/usr/bin/env python3
"""Tests of the reader's module-level table of runs (plots/results.py records, to_dataframe):
a dict per run of a file or of every file in a folder, the same rows as a pandas DataFrame, and
without pandas an ImportError that says how to get it.

Run: PYTHONPATH=. python3 tests/plots/test_results_records.py   (from the project root)
"""
import builtins
import unittest
from pathlib import Path
from unittest import mock

from plots import results

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "results" / "reference" / "h100" / "development"
FILE = FOLDER / "dtw-paper.json"


class Records(unittest.TestCase):
    def test_a_row_per_run_of_the_file(self):
        loaded = results.load(FILE)
        rows = results.records(FILE)
        self.assertEqual(len(rows), len(loaded.runs))
        self.assertEqual([r["variant"] for r in rows], [r.variant for r in loaded.runs])
        self.assertEqual({r["config"] for r in rows}, {loaded.name})
        first = rows[0]
        for column in ("config", *results.RECORD_FIELDS, "interval_lo_ms", "interval_hi_ms"):
            self.assertIn(column, first)
        self.assertTrue(any(k.startswith("param.") for k in first), first)

    def test_a_folder_gives_every_file_s_runs(self):
        files = results.load_all([FOLDER])
        self.assertGreater(len(files), 1)
        self.assertEqual(len(results.records(FOLDER)), sum(len(f.runs) for f in files))
        self.assertEqual(results.records(str(FILE)), results.load(FILE).records())

    def test_a_file_that_is_no_results_file_is_refused(self):
        with self.assertRaises(results.ResultsError):
            results.records(ROOT / "CITATION.cff")


class DataFrame(unittest.TestCase):
    def test_without_pandas_the_error_says_how_to_get_it(self):
        real = builtins.__import__

        def no_pandas(name, *args, **kwargs):
            if name == "pandas":
                raise ImportError("no pandas here")
            return real(name, *args, **kwargs)

        with mock.patch("builtins.__import__", no_pandas):
            with self.assertRaises(ImportError) as err:
                results.to_dataframe(FILE)
        self.assertIn("pip install", str(err.exception))
        self.assertIn("[dataframe]", str(err.exception))

    def test_the_rows_of_records(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("no pandas")
        frame = results.to_dataframe(FILE)
        rows = results.records(FILE)
        self.assertEqual(len(frame), len(rows))
        self.assertEqual(list(frame.variant), [r["variant"] for r in rows])


if __name__ == "__main__":
    unittest.main()
