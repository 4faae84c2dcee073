#!/usr/bin/env python3
"""StringZilla 4.6.3, the last release that scores a batch of pairs in one call, as a peer of the
eed study: stringzilla.py at that release (peers/README.md). From 5.0 on the call computes
cross-product matrices only, so the newest release is not the fastest at many pairs: `ladder
reproduce` runs both, each its own results file, and the report takes the faster."""
import importlib.util
import sys
from pathlib import Path

from .. import cli

RELEASE = "4.6.3"

# stringzilla.py loaded anew under another name, in this package (its relative imports hold):
# the settings below change this copy, never peers.eed.stringzilla.
COPY = f"{__package__}.stringzilla_{RELEASE.replace('.', '_')}"  # peers.eed.stringzilla_4_6_3
SPEC = importlib.util.spec_from_file_location(COPY, Path(__file__).with_name("stringzilla.py"))
peer = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(peer)
peer.VERSION = RELEASE  # --szs-version's default, read when the arguments are parsed
# --ready and --offline name the fetch: a machine with network fetches the sources, and the GPU
# machine builds them with its own nvcc on the first run (or with --build-only).
peer.PREPARE = {flag: peer.PREPARE[flag] for flag in ("--fetch-only", "--build-only")}

if __name__ == "__main__":
    sys.exit(cli.main(peer, __file__))
