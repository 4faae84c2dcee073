#!/usr/bin/env python3
"""peers/timer.py's timing loop keeps a config's time budget as ladder's runner does: the first
call counts as a warm-up, the repetitions are cut to the calls that fit after it, and a first
call past the budget is the only sample. A fake clock makes every duration exact.

    peers_timing.py
"""
import sys
import types

from peers import timer


class Clock:
    def __init__(self):
        self.now = 0.0

    def call(self, seconds):
        def run():
            self.now += seconds
            return "out"
        return run


def timed(seconds, budget, warmup=2, repetitions=5):
    clock = Clock()
    timer.time = types.SimpleNamespace(perf_counter=lambda: clock.now, process_time=lambda: 0.0)
    point = {"warmup": {"gpu": warmup}, "repetitions": {"gpu": repetitions}}
    if budget is not None:
        point["time_budget_s"] = budget
    timing, out, _ = timer.timed(clock.call(seconds), point, "gpu")
    return timing, out, round(clock.now / seconds)


CASES = [  # (seconds a call, budget, want samples, want warm-up, want calls)
    (0.010, 1.0, 5, 2, 7),    # every repetition fits; the first call is one of two warm-ups
    (0.300, 1.0, 2, 2, 4),    # two calls fit after the first
    (0.600, 1.0, 1, 0, 1),    # none fits: the first call is the only sample
    (0.600, 0, 5, 2, 7),      # no budget: the counts asked for
    (0.600, None, 5, 2, 7),   # a plan of an older ladder names none
]
problems = []
for seconds, budget, samples, warmup, calls in CASES:
    timing, out, made = timed(seconds, budget)
    got = (len(timing["samples_ms"]), timing["warmup"], made)
    if got != (samples, warmup, calls) or out != "out" or \
            any(abs(ms - seconds * 1e3) > 1e-6 for ms in timing["samples_ms"]):
        problems.append(f"{seconds} s a call, budget {budget}: (samples, warm-up, calls) {got}, "
                        f"want {(samples, warmup, calls)}")
timing, _, made = timed(0.300, 1.0, warmup=0)  # no warm-up asked: the first call becomes one
if (len(timing["samples_ms"]), timing["warmup"], made) != (2, 1, 3):
    problems.append(f"no warm-up asked: {timing}, {made} calls")
print("\n".join(f"FAIL: {p}" for p in problems) or "ok")
sys.exit(1 if problems else 0)
