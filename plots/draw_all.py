"""Draw every figure the configs of one or more `ladder run` results files ask for.

Usage: python3 plots/draw_all.py RESULTS.json [RESULTS2.json ...] [--out-dir DIR]
                                 [--figures NAME,SWEEP:NAME,...]

A config's `figures` lists say which figure draws which runs (see common.figure_runs);
--figures replaces them, e.g. for files written before configs named figures.
Exit status: 0 when done, 2 when a file cannot be read or matplotlib is missing.
"""
import sys

import common
import covariance_chunk_sweep
import dtw_length_sweep
import dtw_paper
import eed_paper
import ladder
import skyline_paper
import twed_paper
import twed_table2

# The figure names a config may use. A new figure: a module with draw(results, runs,
# out_dir) returning the paths it wrote, and one line here.
FIGURES = {
    "ladder": ladder.draw,
    "dtw_paper": dtw_paper.draw,
    "dtw_length_sweep": dtw_length_sweep.draw,
    "covariance_chunk_sweep": covariance_chunk_sweep.draw,
    "twed_paper": twed_paper.draw,
    "twed_table2": twed_table2.draw,
    "eed_paper": eed_paper.draw,
    "skyline_paper": skyline_paper.draw,
}

if __name__ == "__main__":
    sys.exit(common.main(FIGURES))
