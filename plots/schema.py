"""JSON Schemas of ladder's files (plots/schemas/), and a check of a file against one.

    problems = schema.validate("results", json.load(open("results/dtw-paper.json")))

Kinds: config (configs/<study>/*.json), results (what `ladder run`, merge and ingest write),
costs (configs/costs.json). The schemas are draft 2020-12; validating needs the jsonschema
package (4.0 or later), imported only when a check runs, so that reading results never needs it.

    python3 -m plots.schema KIND FILE...

prints each problem of each file; exit status 0 when every file fits, 1 when one does not,
2 when a file cannot be read or jsonschema is missing.
"""
import json
import sys
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parent / "schemas"
KINDS = ("config", "results", "costs")
INSTALL = "validating against the JSON Schemas needs jsonschema 4.0 or later: pip install jsonschema"


class SchemaError(Exception):
    """Validation cannot run (no jsonschema, or an unknown kind); the message is one line."""


def schema_path(kind):
    """The schema file of `kind` (one of KINDS)."""
    if kind not in KINDS:
        raise SchemaError(f"no schema of kind {kind!r}: the kinds are {', '.join(KINDS)}")
    return SCHEMAS / f"{kind}.schema.json"


def _schema(kind):
    return json.loads(schema_path(kind).read_text(encoding="utf-8"))


def _validator(kind):
    """A draft 2020-12 validator of `kind` that resolves the other schemas by their $id (the
    results schema refers to the config's)."""
    try:
        import jsonschema
        cls = jsonschema.Draft202012Validator
    except (ImportError, AttributeError) as err:  # AttributeError: a jsonschema before 4.0
        raise SchemaError(INSTALL) from err
    schema = _schema(kind)
    others = [_schema(k) for k in KINDS]
    try:  # jsonschema 4.18 and later resolve through `referencing`
        from referencing import Registry, Resource
    except ImportError:
        store = {s["$id"]: s for s in others}
        return cls(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in others)
    return cls(schema, registry=registry)


def _where(path):
    """runs[3].timing.median: where in the file a problem is ('(top level)' for the file)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def validate(kind, data):
    """Each way `data` (parsed JSON) breaks the schema of `kind`, as one line 'where: what',
    in the order of the file; [] when it fits. SchemaError when validation cannot run."""
    errors = sorted(_validator(kind).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [f"{_where(e.absolute_path)}: {e.message}" for e in errors]


def main(argv):
    if len(argv) < 2 or argv[0] not in KINDS:
        print(f"usage: schema.py {{{','.join(KINDS)}}} FILE...", file=sys.stderr)
        return 2
    status = 0
    for name in argv[1:]:
        try:
            problems = validate(argv[0], json.loads(Path(name).read_text(encoding="utf-8")))
        except (OSError, ValueError) as err:
            print(f"{name}: cannot read: {err}", file=sys.stderr)
            return 2
        except SchemaError as err:
            print(f"schema.py: {err}", file=sys.stderr)
            return 2
        for p in problems:
            print(f"{name}: {p}")
        status = status or (1 if problems else 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
