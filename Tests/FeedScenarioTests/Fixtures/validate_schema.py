#!/usr/bin/env python3
"""Validates JSON files against a JSON Schema (draft 2020-12).

Usage: validate_schema.py SCHEMA [FILE...]

Prints one JSON line per FILE, in order:
    {"file": FILE, "valid": true|false, "errors": ["$.path: message", ...]}
A file that cannot be read or is not strict JSON (NaN, Infinity) is invalid,
with the reason as its error. So is a file with a key given twice in one
object, with the single error "$.path.key: duplicate key": Python's json
module would keep the last value, feedsim refuses the file, and so does this.

Exit status: 0 when every line was printed (whatever the verdicts); 2 when the
schema itself is unusable; 3 when the `jsonschema` package is missing.
"""

import json
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError as error:  # the caller tells the user how to install it
    print(f"validate_schema.py: cannot import jsonschema ({error}); run scripts/bootstrap "
          "(or `python3 -m pip install jsonschema`)", file=sys.stderr)
    sys.exit(3)


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


class Members(list):
    """An object's members in file order, before duplicates are checked."""


class DuplicateKey(ValueError):
    def __init__(self, path):
        super().__init__(f"{path}: duplicate key")
        self.path = path


def unique(value, path="$"):
    """The document with every object a dict; DuplicateKey at the first
    repeated key in document order (the order feedsim reports)."""
    if isinstance(value, Members):
        result = {}
        for key, member in value:
            if key in result:
                raise DuplicateKey(f"{path}.{key}")
            result[key] = unique(member, f"{path}.{key}")
        return result
    if isinstance(value, list):
        return [unique(item, f"{path}[{index}]") for index, item in enumerate(value)]
    return value


def load(path):
    with open(path, encoding="utf-8") as handle:
        return unique(json.load(handle, parse_constant=reject_constant, object_pairs_hook=Members))


def json_path(error):
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_path, files = argv[1], argv[2:]
    try:
        schema = load(schema_path)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, SchemaError) as error:
        print(f"validate_schema.py: unusable schema {schema_path}: {error}", file=sys.stderr)
        return 2
    validator = Draft202012Validator(schema)
    for path in files:
        try:
            instance = load(path)
        except DuplicateKey as error:
            errors = [str(error)]
        except (OSError, ValueError, RecursionError) as error:
            errors = [f"$: not a readable JSON file ({error})"]
        else:
            found = sorted(validator.iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message))
            errors = [f"{json_path(e)}: {e.message}" for e in found]
        print(json.dumps({"file": path, "valid": not errors, "errors": errors}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
