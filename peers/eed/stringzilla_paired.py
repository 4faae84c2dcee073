#!/usr/bin/env python3
"""StringZilla 4.6.3, the last release that scores a batch of pairs in one call, as a peer of the
eed study: stringzilla.py at that release (peers/README.md). From 5.0 on the call computes
cross-product matrices only, so the newest release is not the fastest at many pairs: `ladder
reproduce` runs both, each its own results file, and the report takes the faster."""
import importlib.util
import sys
from pathlib import Path

# peers/ for common.py, instead of this folder (as stringzilla.py does).
sys.path[0] = str(Path(__file__).resolve().parents[1])
import common  # noqa: E402

RELEASE = "4.6.3"

# stringzilla.py as a module of another name: `import stringzilla` is StringZilla's package.
SPEC = importlib.util.spec_from_file_location("stringzilla_peer",
                                              Path(__file__).with_name("stringzilla.py"))
peer = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(peer)
peer.VERSION = RELEASE  # --szs-version's default, read when the arguments are parsed
# --ready and --offline name the fetch: a machine with network fetches the sources, and the GPU
# machine builds them with its own nvcc on the first run (or with --build-only).
peer.PREPARE = {flag: peer.PREPARE[flag] for flag in ("--fetch-only", "--build-only")}

if __name__ == "__main__":
    sys.exit(common.main(peer, __file__))
