"""Tests that figures are fit for a paper or a talk: every PNG that plots/pages.py's `save`
writes has a vector PDF of the same name beside it, drawing the same results twice gives
byte-identical PDFs, draw_all.py still prints one line (the PNG's path) per figure, and no
text in any figure is smaller than pages.MIN_FONT_PT points at the figure's saved size.
Drawn from a committed results file of the H100 quick reproduction; nothing under results/ is
written.

Run: PYTHONPATH=. python3 tests/plots/test_figures_pdf.py   (exits non-zero on failure)
"""
import contextlib
import io
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import draw, pages  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import studies  # noqa: E402

RESULTS = ROOT / "results" / "reference" / "h100" / "quick" / "dtw-paper.json"


class FiguresPdf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.first, cls.second = Path(cls.tmp.name, "first"), Path(cls.tmp.name, "second")
        # In this process, through a hook on save: the text of each figure as it is saved.
        cls.sizes, save = {}, pages.save

        def hook(fig, out_dir, name):
            cls.sizes[name] = pages.font_sizes(fig)
            return save(fig, out_dir, name)

        pages.save = hook
        try:
            results = ladder_results.load(str(RESULTS))
            with contextlib.redirect_stdout(io.StringIO()):  # the paths it prints
                cls.written = draw.draw_file(results, studies.figures(), cls.first, None)
        finally:
            pages.save = save
        # Again in a fresh process, as draw_all.py runs: its output and its PDFs' bytes.
        cls.drawn = subprocess.run([sys.executable, "-m", "plots.draw_all",
                                  str(RESULTS), "--out-dir", str(cls.second)],
                                 capture_output=True, text=True, cwd=ROOT)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_drew_several(self):
        self.assertEqual(self.drawn.returncode, 0, self.drawn.stderr)
        self.assertGreaterEqual(len(self.written), 3)

    def test_each_png_has_a_pdf(self):
        pngs = sorted(p.stem for p in self.first.glob("*.png"))
        self.assertEqual(pngs, sorted(p.stem for p in self.first.glob("*.pdf")))
        self.assertEqual(sorted(Path(p).stem for p in self.written), pngs)
        for pdf in self.first.glob("*.pdf"):
            head = pdf.read_bytes()[:5]
            self.assertEqual(head, b"%PDF-", pdf.name)

    def test_prints_one_png_path_per_figure(self):
        printed = self.drawn.stdout.splitlines()
        self.assertEqual(sorted(Path(p).name for p in printed),
                         sorted(p.name for p in self.second.glob("*.png")))

    def test_pdfs_are_byte_identical(self):
        names = sorted(p.name for p in self.first.glob("*.pdf"))
        self.assertEqual(names, sorted(p.name for p in self.second.glob("*.pdf")))
        for name in names:
            self.assertEqual((self.first / name).read_bytes(), (self.second / name).read_bytes(),
                             name)

    def test_no_text_below_the_minimum(self):
        self.assertEqual(sorted(self.sizes), sorted(Path(p).name for p in self.written))
        for name, sizes in self.sizes.items():
            self.assertTrue(sizes, name)
            self.assertGreaterEqual(min(sizes), pages.MIN_FONT_PT, name)
        self.assertGreaterEqual(pages.MIN_FONT_PT, 8)

    def test_font_sizes_sees_small_text(self):
        fig, _ = pages.page(ladder_results.load(str(RESULTS)), "title", 1.0)
        fig.text(0.5, 0.5, "tiny", fontsize=6)
        self.assertEqual(min(pages.font_sizes(fig)), 6)


if __name__ == "__main__":
    unittest.main()
