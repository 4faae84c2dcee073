"""The timing loop, as ladder's runner times: warm-up calls, then the repetitions, the wall clock
around each call (and an optional device synchronise), cut to what fits a config's time
budget."""
import time

def timed(call, point, backend, fresh=None, sync=lambda: None):
    """The handover's samples_ms and warmup for `call(fresh())` (fresh() is untimed: new
    inputs), the last call's output, and the CPU seconds per wall second of the timed calls."""
    warmup, repetitions = point["warmup"][backend], point["repetitions"][backend]
    budget = point.get("time_budget_s") or 0
    samples, out, cpu = [], None, 0.0
    i = 0
    while i < warmup + repetitions:
        inputs = (fresh(),) if fresh else ()
        cpu_start, start = time.process_time(), time.perf_counter()
        out = call(*inputs)
        sync()
        ms = (time.perf_counter() - start) * 1e3
        if i == 0 and budget > 0:  # the config's time budget, as ladder's runs keep it
            warmup, repetitions = budgeted(ms, budget, warmup, repetitions)
        if i >= warmup:
            samples.append(ms)
            cpu += time.process_time() - cpu_start
        i += 1
    wall = sum(samples) / 1e3
    return {"samples_ms": samples, "warmup": warmup}, out, (cpu / wall if wall > 0 else 0.0)


def budgeted(first_ms, budget_s, warmup, repetitions):
    """(warm-up, repetitions) under a time budget, as ladder's runner counts them: the first
    call counts as a warm-up and the repetitions are cut to the calls that fit after it; when
    none fits, that first call is the only sample."""
    fit = budget_s * 1e3 / max(first_ms, 1e-6) - 1
    if fit < 1:
        return 0, 1
    return max(warmup, 1), min(repetitions, int(fit))
