#!/usr/bin/env python3
"""Writes the generated part of the seed corpus: the .npy seeds (corpus/npy/gen_*.npy), a
small CBF-like UCR file (corpus/ucr/gen_series.tsv), the IDX image seeds
(corpus/idx/gen_*.idx), the CSV point seeds (corpus/points/gen_*.csv) and TWED's .npy series
seeds (corpus/series_npy/gen_*.npy), and the JSON seeds of the readers added with shards,
costs, handovers and export (corpus/shards, costs, ingest, export: gen_*; a seed of several
files holds them separated by NUL bytes). Deterministic, standard library only;
run it again after changing it. The other seeds are hand-written or copied from configs/,
tests/cli/fixtures/ and results/reference/."""
import json
import math
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent


def npy(descr, shape, payload, version=(1, 0), fortran=False, dict_text=None, pad=True):
    """A .npy file: magic, version, header length, the header dict, then `payload`."""
    if dict_text is None:
        dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
        dict_text = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
            descr, "True" if fortran else "False", dims)
    length_bytes = 2 if version[0] == 1 else 4
    if pad:
        total = 6 + 2 + length_bytes + len(dict_text) + 1
        dict_text += " " * ((64 - total % 64) % 64)
    header = (dict_text + "\n").encode("latin-1")
    fmt = "<H" if length_bytes == 2 else "<I"
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, len(header)) + header + payload


def floats(fmt, values):
    return b"".join(struct.pack(fmt, v) for v in values)


def idx(magic, dims, payload):
    """An IDX file: the magic number, one big-endian uint32 per dimension, then `payload`."""
    return struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in dims) + payload


def idx_seeds():
    """Valid MNIST-like image files and the ways an images file goes wrong."""
    # A 28 x 28 ring, drawn with whole bytes, as one valid full-size image.
    ring = bytes(255 if 6 <= math.hypot(r - 13.5, c - 13.5) <= 9 else 0
                 for r in range(28) for c in range(28))
    ramp = bytes(range(24))
    return {
        "ring_1x28x28": idx(0x803, (1, 28, 28), ring),
        "ramp_2x3x4": idx(0x803, (2, 3, 4), ramp),
        "one_pixel": idx(0x803, (1, 1, 1), b"\xff"),
        "labels_idx1": idx(0x801, (3,), b"\x05\x00\x04"),
        "float_idx3": idx(0xD03, (1, 1, 1), struct.pack(">f", 1.0)),
        "ubyte_2d": idx(0x802, (2, 3), ramp[:6]),
        "ubyte_4d": idx(0x804, (1, 2, 3, 4), ramp),
        "gzip": b"\x1f\x8b\x08\x08" + b"train-images-idx3-ubyte\x00",
        "header_truncated": idx(0x803, (2,), b"\x00\x00"),
        "magic_only": struct.pack(">I", 0x803),
        "zero_images": idx(0x803, (0, 28, 28), b""),
        "zero_cols": idx(0x803, (4, 28, 0), b""),
        "data_short": idx(0x803, (2, 3, 4), ramp[:23]),
        "data_long": idx(0x803, (2, 3, 4), ramp + b"\x00"),
        "dims_huge": idx(0x803, (60000, 60000, 60000), ramp),
        "dims_overflow": idx(0x803, (2**32 - 1,) * 3, ramp),
    }


def points_seeds():
    """CSV point files in the layouts the reader takes, and the ways such a file goes wrong."""
    # 40 points of 3 attributes in [0, 1] with ids, as write_points lays them out (float32
    # values, 9 digits: enough to read back exactly).
    def f32(v):
        return "%.9g" % struct.unpack("<f", struct.pack("<f", v))[0]
    rows = [[f32((math.sin(1.3 * i + 0.7 * k) + 1) / 2) for k in range(3)] for i in range(40)]
    written = "".join("%d,%s\n" % (i, ",".join(r)) for i, r in enumerate(rows))
    wide = "".join("%d,%s\n" % (i, ",".join(["0.5"] * 64)) for i in range(2))
    return {
        "written": written,
        "plain": "0.5,0.25\n0.125,1\n0,0.75\n",
        "ids_from_0": "0,0.5,0.25\n1,0.125,1\n2,0,0.75\n",
        "ids_from_1": "1,0.5,0.25\n2,0.125,1\n3,0,0.75\n",
        "ids_out_of_order": "0,0.5,0.25\n2,0.125,1\n1,0,0.75\n",
        "header": "price,distance\n0.5,0.25\n0.125,1\n",
        "header_ids": "id,price,distance\n1,0.5,0.25\n2,0.125,1\n",
        "pandas": ",a,b\n0,0.5,0.25\n1,0.125,1\n",
        "crlf": "x,y\r\n0.5,0.25\r\n0.125,1\r\n",
        "spaces": " 0.5 ,\t0.25\n  -1e-3 , +2.5e+1 \n",
        "one_column": "0\n1\n2\n",
        "unterminated": "0.5,0.25\n0.125,1",
        "trailing_blank": "0.5,0.25\n\n \n",
        "wide_64_with_ids": wide,
        "nan": "0.5,0.25\n0.125,nan\n",
        "inf": "0.5,-inf\n",
        "overflow": "0.5,1e39\n",
        "hex": "0x1p3,1\n",
        "ragged": "0.5,0.25\n0.125\n",
        "empty_field": "0.5,,0.25\n",
        "trailing_comma": "0.5,0.25,\n",
        "blank_middle": "0.5,0.25\n\n0.125,1\n",
        "header_later": "0.5,0.25\nx,y\n",
        "header_only": "x,y\n",
        "space_separated": "0.5 0.25\n0.125 1\n",
        "lone_cr": "0.5,0.25\r0.125,1\r",
        "bom": "\ufeff0.5,0.25\n",
        "nul": "0.5,0.25\n0.125,\x00\n",
        "empty": "",
        "skybench": "0.12, 0.55, 0.97,\n0.5, 0.25, 0.125,\n",
        "skybench_ids": "0,0.12,0.55,\n1,0.5,0.25,\n",
        "skybench_header": "x,y\n0.12,0.55,\n0.5,0.25,\n",
        "trailing_comma_missing": "0.12,0.55,\n0.5,0.25\n",
        "trailing_comma_once": "0.12,0.55\n0.5,0.25,\n",
        "trailing_commas_two": "0.12,0.55,,\n",
        "semicolons": "1;2;3\n4;5;6\n",
        "semicolons_decimal_comma": "x;y\n0,5;1,25\n",
        "quoted": '"1","2"\n"3","4"\n',
        "quoted_header": '"x","y"\n1,2\n',
    }


def series_npy_seeds():
    """TWED's .npy series: (count, length) or (count, length, dim), timestamps in channel 0
    when asked for, and the ways such a file goes wrong."""
    six = [1.0, -2.5, 3.25, 0.0, 1e-3, 7.0]
    # 2 series of 3 points, channel 0 increasing times, channel 1 a value.
    timed = [0.0, 1.0, 1.0, 2.0, 2.5, 3.0, 0.5, -1.0, 0.75, 4.0, 1.0, 5.0]
    stalled = [0.0, 1.0, 1.0, 2.0, 1.0, 3.0, 0.5, -1.0, 0.75, 4.0, 1.0, 5.0]
    return {
        "f8_2x3": npy("<f8", (2, 3), floats("<d", six)),
        "f4_2x3x2_timed": npy("<f4", (2, 3, 2), floats("<f", timed)),
        "f8_2x3x2_stalled_time": npy("<f8", (2, 3, 2), floats("<d", stalled)),
        "f8_1x1x1": npy("<f8", (1, 1, 1), floats("<d", [2.0])),
        "f4_big_endian_3d": npy(">f4", (1, 2, 3), floats(">f", six)),
        "f8_nan": npy("<f8", (2, 3), floats("<d", six[:5] + [math.nan])),
        "f8_inf_time": npy("<f8", (1, 3, 2), floats("<d", [math.inf] + six[:5])),
        "f8_rank1": npy("<f8", (6,), floats("<d", six)),
        "f8_rank4": npy("<f8", (1, 1, 2, 3), floats("<d", six)),
        "f8_zero_series": npy("<f8", (0, 3), b""),
        "f8_zero_length": npy("<f8", (2, 0, 2), b""),
        "f8_truncated": npy("<f8", (2, 3), floats("<d", six[:4])),
        "gzip": b"\x1f\x8b\x08\x00" + bytes(12),
    }


# --- results, shards, costs, handovers ---------------------------------------------------------

def run(index, point, variant="naive", study="dtw", status="passed", samples=(1.0, 1.1), **extra):
    """A run as results record it (the fields the readers look at)."""
    r = {"run_index": index, "study": study, "variant": variant, "point": point, "sweep": "",
         "status": status, "label": variant, "role": "step", "wall_s": 0.25 * (index + 1)}
    if samples is not None:
        median = sorted(samples)[len(samples) // 2]
        r["timing"] = {"median": median, "samples": list(samples), "warmup": 1, "unit": "ms",
                       "mean": sum(samples) / len(samples), "stddev": 0.05, "cv": 0.01}
    else:
        r["timing"] = None
    r.update(extra)
    return r


def results(config, runs, complete=True, commit="abc123", device="NVIDIA H100 80GB HBM3",
            shard=None, **extra):
    summary = {}
    for r in runs:
        summary[r["status"]] = summary.get(r["status"], 0) + 1
    j = {"schema_version": 1, "ladder": {"git_commit": commit, "build_type": "Release"},
         "config": config, "scale": "quick", "complete": complete,
         "device": {"name": device, "pci_bus_id": "0000:01:00.0", "uuid": "GPU-1"},
         "host": {"hostname": "node1", "cores": 16}, "started_at": "2026-01-02T03:04:05Z",
         "finished_at": "2026-01-02T03:05:05Z" if complete else "", "runs": runs,
         "runs_planned": len(runs), "summary": summary}
    if shard is not None:
        j["shard"] = shard
    j.update(extra)
    return j


def as_text(j):
    return json.dumps(j, indent=1) + "\n"


def files(*docs):
    """Several files in one seed, NUL-separated (tests/fuzz/fuzz_input.hpp input_files)."""
    return b"\0".join((d if isinstance(d, str) else as_text(d)).encode("utf-8") for d in docs)


def plan_shards(config, owners, count, plan_hash="1f2e3d4c5b6a7988", reproduction=None, **kw):
    """Shard k of count of one plan: its runs are those whose owner is k."""
    out = []
    for k in range(count):
        block = {"index": k, "count": count, "plan_hash": plan_hash, "runs_total": len(owners),
                 "owners": owners}
        if reproduction is not None:
            block["reproduction"] = reproduction
        runs = [run(i, "n=%d" % (8 * (i + 1))) for i, o in enumerate(owners) if o == k]
        out.append(results(config, runs, shard=block, **kw))
    return out


def shards_seeds():
    """Shards that merge, and the ways shards fail to (each passes today's merge)."""
    c = {"name": "c", "study": "dtw"}
    d = {"name": "d", "study": "dtw"}
    a0, a1 = plan_shards(c, [0, 1, 0, 1], 2)
    r = ["c", "d"]
    rc0, rc1 = plan_shards(c, [0, 1, 1], 2, reproduction=r)
    rd0, rd1 = plan_shards(d, [1, 0], 2, plan_hash="99aa", reproduction=r)
    incomplete = dict(a1, complete=False)
    other_commit = dict(a1, ladder={"git_commit": "def456"})
    other_device = dict(a1, device={"name": "NVIDIA A100"})
    other_count = plan_shards(c, [0, 1, 2, 0], 3)[1]
    not_its_run = json.loads(json.dumps(a0))
    not_its_run["runs"][0]["run_index"] = 1
    bad_owner = json.loads(json.dumps(a0))
    bad_owner["shard"]["owners"] = [0, 7, 0, 1]
    return {
        "two_of_two": files(a0, a1),
        "two_of_two_reversed": files(a1, a0),
        "one_of_two": files(a0),
        "reproduction": files(rc0, rc1, rd0, rd1),
        "reproduction_one_config": files(rc0, rc1),
        "index_twice": files(a0, a0),
        "incomplete_runs_missing": files(a0, dict(a1, complete=False, runs=[])),
        "other_commit": files(a0, other_commit),
        "other_device": files(a0, other_device),
        "other_count": files(a0, other_count),
        "not_its_run": files(not_its_run, a1),
        "bad_owner": files(bad_owner, a1),
        "not_a_shard": files(results(c, [run(0, "n=8")])),
        "two_configs_not_reproduction": files(a0, plan_shards(d, [0, 1, 0, 1], 2)[1]),
        "truncated": files(a0, as_text(a1)[:200]),
        "empty_second": files(a0, ""),
    }


# The config fuzz_costs weighs (tests/fuzz/fuzz_costs.cpp) and its points as `ladder plan`
# names them.
COSTS_POINTS = ["mode=%s,n=%d,seed=1,series=3" % (mode, n)
                for n in (8, 16) for mode in ("batch", "triangle")]


def costs_seeds():
    """Earlier results as --costs reads them: of the fuzz config's runs, in part or whole."""
    config = {"name": "fuzz", "study": "twed"}
    runs = []
    for p, point in enumerate(COSTS_POINTS):
        for v, variant in enumerate(["seq_full", "openmp"]):
            runs.append(run(len(runs), point, variant=variant, study="twed",
                            samples=(2.0 + p, 2.5 + p), wall_s=0.5 * (p + 1) / (v + 1)))
    whole = results(config, runs)
    older = json.loads(json.dumps(whole))
    for r in older["runs"]:
        del r["wall_s"]  # files written before runs recorded it: samples and warm-up
    half = results(config, runs[:4])
    other = results({"name": "other", "study": "twed"}, runs[4:])
    peer = results(config, runs[:2], peer={"name": "Fuzz 1.0"})
    untimed = results(config, [run(0, COSTS_POINTS[0], variant="seq_full", study="twed",
                                   status="skipped", samples=None)])
    huge = json.loads(json.dumps(half))
    huge["runs"][0]["wall_s"] = 1e300
    return {
        "whole": files(whole),
        "older_without_wall_s": files(older),
        "half": files(half),
        "half_and_other": files(half, other),
        "folder_of_three": files(half, other, older),
        "peer_only": files(peer),
        "untimed": files(untimed),
        "not_results": files('{"schema_version": 1}'),
        "empty_and_whole": files("", whole),
        "large_but_finite": files(huge),
    }


def ingest_seeds():
    """Handovers against fuzz_ingest's twed config (2 points; p0.npy lies beside them)."""
    variant = {"name": "peer_fuzz", "label": "Fuzz", "backend": "cpu", "precision": "fp64"}

    def handover(runs, variants=(variant,), **extra):
        h = {"peer": {"name": "Fuzz 1.0", "version": "1"}, "variants": list(variants), "runs": runs}
        h.update(extra)
        return h

    ran = {"point": 0, "variant": "peer_fuzz", "outputs": "p0.npy", "samples_ms": [1.5, 2.0],
           "warmup": 1, "facts": {"threads": 4}, "note": "a note"}
    second = dict(variant, name="peer_gpu", backend="gpu", precision="fp32",
                  params={"nu": 0.5, "lambda": 2})
    return {
        "ran": handover([ran]),
        "ran_and_unsupported": handover([ran, {"point": 1, "variant": "peer_fuzz", "unsupported": "too big"}]),
        "two_variants": handover([ran, dict(ran, variant="peer_gpu"), dict(ran, point=1)],
                                 variants=(variant, second)),
        "error": handover([{"point": 1, "variant": "peer_fuzz", "error": "out of memory"}]),
        "params_unknown": handover([ran], variants=(dict(variant, params={"zeta": 1}),)),
        "params_out_of_range": handover([ran], variants=(dict(variant, params={"nu": -1}),)),
        "outputs_missing": handover([dict(ran, outputs="missing.npy")]),
        "outputs_and_error": handover([dict(ran, error="x")]),
        "samples_zero": handover([dict(ran, samples_ms=[0])]),
        "samples_empty": handover([dict(ran, samples_ms=[])]),
        "samples_text": handover([dict(ran, samples_ms=["1"])]),
        "warmup_huge": handover([dict(ran, warmup=100001)]),
        "facts_text": handover([dict(ran, facts={"threads": "4"})]),
        "point_beyond": handover([dict(ran, point=2)]),
        "run_twice": handover([ran, ran]),
        "variant_unknown": handover([dict(ran, variant="nobody")]),
        "variant_a_step": handover([dict(ran, variant="seq_full")],
                                   variants=(dict(variant, name="seq_full"),)),
        "variant_slash": handover([ran], variants=(dict(variant, name="a/b"),)),
        "variant_twice": handover([ran], variants=(variant, variant)),
        "precision_bad": handover([ran], variants=(dict(variant, precision="fp8"),)),
        "label_two_lines": handover([ran], variants=(dict(variant, label="a\nb"),)),
        "unknown_field": handover([ran], extra=1),
        "peer_not_object": handover([ran], peer=[1]),
        "no_runs": handover([]),
        "not_object": [1, 2],
    }


def export_seeds():
    """Results as `ladder export` reads them: repeated, single-sample and untimed runs, sweeps,
    parameters, a point a sweep lists twice."""
    config = {"name": "fuzz", "study": "dtw"}

    def timed(i, point, samples, **kw):
        kw.setdefault("params", {"n": point[2:], "seed": "42"})
        return run(i, point, samples=samples, metric="gcups",
                   metrics={"gcups": 12.5, "pct_of_peak": 3.5}, **kw)

    runs = [timed(0, "n=8", (1.0, 1.2, 1.1)), timed(1, "n=16", (2.0,)),
            run(2, "n=32", status="skipped", samples=None, reason="no CUDA device"),
            timed(3, "n=8", (1.5, 1.6), sweep="second"), timed(4, "n=8", (1.4, 1.7), sweep="second")]
    return {
        "runs": results(config, runs),
        "same_point_thrice": results(config, [timed(i, "n=8", (1.0, 1.5), sweep="s") for i in range(3)]),
        "one_run": results(config, runs[:1]),
        "no_runs": results(config, []),
        "quoted_names": results(config, [timed(0, 'n=8,"a, b"', (1.0, 2.0), variant="v\r\nw")]),
        "median_no_samples": results(config, [run(0, "n=8", samples=(1.0,), timing={"median": 1.0})]),
        "params_not_object": results(config, [timed(0, "n=8", (1.0, 2.0), params=[1])]),
        "aggregates_text": results(config, [run(0, "n=8", samples=(1.0, 2.0),
                                                timing={"median": 1.5, "samples": [1.0, 2.0],
                                                        "mean": "x", "stddev": None})]),
        # K processes a run (`--per-process`): per-process samples and medians, then medians
        # that are not positive numbers (read as absent).
        "processes": results(config, [run(0, "n=8", samples=(1.0, 1.1, 2.0, 2.1), timing={
            "median": 1.55, "samples": [1.0, 1.1, 2.0, 2.1], "process_medians": [1.05, 2.05],
            "processes": [{"process": 0, "samples": [1.0, 1.1], "median": 1.05},
                          {"process": 1, "samples": [2.0, 2.1], "median": 2.05}]})],
            processes={"count": 2, "mode": "repeat", "list": [{"index": 0, "order_position": 1},
                                                              {"index": 1, "order_position": 2}]}),
        "processes_bad_medians": results(config, [run(0, "n=8", samples=(1.0,), timing={
            "median": 1.0, "samples": [1.0], "process_medians": [0, "x"],
            "processes": [{"process": -1, "median": -2.0}, {"median": None}]})]),
    }


def write_json_seeds():
    for folder, seeds, ext in (("shards", shards_seeds(), "bin"), ("costs", costs_seeds(), "bin"),
                               ("ingest", ingest_seeds(), "json"), ("export", export_seeds(), "json")):
        out = HERE / "corpus" / folder
        out.mkdir(exist_ok=True)
        for name, data in seeds.items():
            data = data if isinstance(data, bytes) else as_text(data).encode("utf-8")
            (out / ("gen_" + name + "." + ext)).write_bytes(data)


def main():
    out = HERE / "corpus" / "npy"
    six = [1.0, -2.5, 3.25, 0.0, 1e-3, 7.0]
    seeds = {
        "f4_2x3": npy("<f4", (2, 3), floats("<f", six)),
        "f8_5": npy("<f8", (5,), floats("<d", six[:5])),
        "f8_scalar": npy("<f8", (), floats("<d", [math.pi])),
        "f4_3d": npy("<f4", (2, 1, 3), floats("<f", six)),
        "f4_empty_0x4": npy("<f4", (0, 4), b""),
        "f8_nan_inf": npy("<f8", (3,), floats("<d", [math.nan, math.inf, -math.inf])),
        "f4_big_endian": npy(">f4", (2, 3), floats(">f", six)),
        "f8_big_endian": npy(">f8", (2,), floats(">d", six[:2])),
        "i8_rejected": npy("<i8", (2,), floats("<q", [1, 2])),
        "f2_rejected": npy("<f2", (2,), b"\x00\x3c\x00\x40"),
        "f4_fortran": npy("<f4", (3, 2), floats("<f", six), fortran=True),
        "f4_v2": npy("<f4", (2, 3), floats("<f", six), version=(2, 0)),
        "f8_v3": npy("<f8", (1, 2), floats("<d", six[:2]), version=(3, 0)),
        "f4_v9": npy("<f4", (1,), floats("<f", [1.0]), version=(9, 0)),
        "f4_truncated_data": npy("<f4", (4, 4), floats("<f", six)),
        "f4_extra_data": npy("<f4", (1, 2), floats("<f", six)),
        "shape_negative": npy("<f4", (-1, 2), floats("<f", six[:2])),
        "shape_text": npy("<f4", ("a", 2), floats("<f", six[:2])),
        "shape_overflow": npy("<f8", (2**62, 2**3, 0), b""),
        "shape_huge": npy("<f8", (2**40,), floats("<d", six)),
        "shape_many_dims": npy("<f4", (1,) * 40, floats("<f", [2.0])),
        "dict_reordered": npy(None, None, floats("<f", six[:2]),
                              dict_text="{'shape':(1,2),'fortran_order':False,'descr':'<f4'}"),
        "dict_no_descr": npy(None, None, b"", dict_text="{'fortran_order': False, 'shape': (0,), }"),
        "dict_unterminated": npy(None, None, b"", dict_text="{'descr': '<f4", pad=False),
        "header_longer_than_file": b"\x93NUMPY\x01\x00\xff\xff{'descr': '<f4'",
        "magic_only": b"\x93NUMPY",
        "not_npy": b"PK\x03\x04 not a numpy file",
        "gzip": b"\x1f\x8b\x08\x00" + bytes(12),
    }
    for name, data in seeds.items():
        (out / ("gen_" + name + ".npy")).write_bytes(data)

    # 12 series of length 24: cylinder, bell and funnel shapes with a fixed ripple for noise.
    lines = []
    for e in range(12):
        label = e % 3 + 1
        row = []
        for t in range(24):
            inside = 6 <= t < 18
            shape = [1.0, (t - 6) / 12, (18 - t) / 12][e % 3] if inside else 0.0
            row.append(6.0 * shape + 0.1 * math.sin(0.7 * t + e))
        lines.append("\t".join([str(label)] + ["%.6g" % v for v in row]))
    (HERE / "corpus" / "ucr" / "gen_series.tsv").write_text("\n".join(lines) + "\n")

    for name, data in idx_seeds().items():
        (HERE / "corpus" / "idx" / ("gen_" + name + ".idx")).write_bytes(data)

    series = HERE / "corpus" / "series_npy"
    series.mkdir(exist_ok=True)
    for name, data in series_npy_seeds().items():
        (series / ("gen_" + name + ".npy")).write_bytes(data)

    points = HERE / "corpus" / "points"
    points.mkdir(exist_ok=True)
    for name, text in points_seeds().items():
        (points / ("gen_" + name + ".csv")).write_bytes(text.encode("utf-8"))

    write_json_seeds()


if __name__ == "__main__":
    main()
