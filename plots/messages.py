"""What the figure scripts say on a terminal: one line per warning, every name in it printable
(a results file's names may hold control characters), matplotlib's own warnings too."""
import sys
import warnings
from pathlib import Path

def printable(text):
    """TEXT as a terminal may show it, as ladder's printable_all does: control, format
    (bidirectional) and other invisible characters as \\xNN of their UTF-8 bytes, so that no
    name in a results file can recolour or rewrite the terminal."""
    return "".join(c if c.isprintable() else "".join("\\x%02x" % b for b in c.encode("utf-8", "surrogatepass"))
                   for c in str(text))


def warn(text):
    print(f"{Path(sys.argv[0]).name}: {printable(text)}", file=sys.stderr)


_formatwarning = warnings.formatwarning


def _printable_warning(message, category, filename, lineno, line=None):
    # matplotlib's warnings quote figure text ("Glyph 27 (\x1b) missing from font"): names.
    return _formatwarning(printable(message), category, filename, lineno, line)


warnings.formatwarning = _printable_warning
