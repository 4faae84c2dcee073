"""Draw every figure the configs of `ladder run` results files ask for: the ladder and every
study's figures (plots/README.md says which).

Usage: python3 -m plots.draw_all RESULTS.json|DIR [...] [--out-dir DIR]
                                  [--figures NAME,SWEEP:NAME,...] [--list]
Exit status: 0 when done, 2 when a file or a study cannot be read or matplotlib is missing.
"""
import sys

from . import draw

if __name__ == "__main__":
    sys.exit(draw.main())
