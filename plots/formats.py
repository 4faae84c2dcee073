"""Numbers as the figures and tables print them: three significant digits, times in ms or s,
tick labels (10k, 2M) and ratios (1.23x)."""


def format_value(value):
    """Three significant digits without scientific notation: 0.632, 2.90, 12.4, 1523."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.1f}" if value >= 10 else f"{value:.2f}"
    return f"{value:.3g}"


def format_time(ms):
    """'42.8 s', '147 ms', '2.20 ms'."""
    return f"{format_value(ms / 1000)} s" if ms >= 1000 else f"{format_value(ms)} ms"


def tick_text(value, _pos=None):
    """1, 50, 200, 10k, 2M, 5G: short enough for a tick, exact for 1-2-5 values."""
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def times_text(value):
    """'1.23x', '45.6x', '789x'; '-' for None."""
    return "-" if value is None else f"{value:.{2 if value < 10 else 1 if value < 100 else 0}f}x"
