#!/usr/bin/env python3
"""Check qlog files against draft-ietf-quic-qlog-main-schema-13 with draft-ietf-quic-qlog-quic-events-12.

  quic_cc_qlog_check.py FILE.sqlog [FILE.sqlog ...]

Each file must be a JSON Text Sequence (RFC 7464: every record RS, one JSON text, LF), its first
record a QlogFileSeq and every other an Event of qlog-main-13-quic-12.schema.json (beside this
script, applied with Debian's python3-jsonschema), the events' times never going backwards
(main-schema-13 Section 7.1 asks for ascending order). Prints one line per file, "<file>: <n>
events" or "<file>: record <i>: <what is wrong>", and exits 1 if any file fails, 2 on a usage
error.
"""

import json
import pathlib
import sys

import jsonschema

SCHEMA_PATH = pathlib.Path(__file__).resolve().parent / "qlog-main-13-quic-12.schema.json"
RECORD_SEPARATOR = b"\x1e"


def _validator(schema, definition):
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def load_validators(schema_path=SCHEMA_PATH):
    """(header validator, event validator) of the schema file."""
    schema = json.loads(pathlib.Path(schema_path).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return _validator(schema, "QlogFileSeq"), _validator(schema, "Event")


def _error_text(error):
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where or '(record)'}: {error.message}"


def check_file(path, validators=None):
    """Return (number of events, None) for a valid file, else (None, the first problem)."""
    header_validator, event_validator = validators or load_validators()
    data = pathlib.Path(path).read_bytes()
    if not data:
        return None, "record 0: empty file"
    if not data.startswith(RECORD_SEPARATOR):
        return None, "record 0: does not start with RS (0x1E) (RFC 7464)"
    records = data.split(RECORD_SEPARATOR)[1:]
    last_time = None
    for i, raw in enumerate(records):
        if not raw.endswith(b"\n"):
            return None, f"record {i}: does not end with LF (RFC 7464)"
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            return None, f"record {i}: not JSON: {e}"
        validator = header_validator if i == 0 else event_validator
        error = next(iter(sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))), None)
        if error is not None:
            return None, f"record {i}: {_error_text(error)}"
        if i > 0:
            if last_time is not None and value["time"] < last_time:
                return None, f"record {i}: time {value['time']} before the previous event's {last_time}"
            last_time = value["time"]
    return len(records) - 1, None


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) < 2 else sys.stdout)
        return 2 if len(argv) < 2 else 0
    validators = load_validators()
    failed = False
    for name in argv[1:]:
        if not pathlib.Path(name).is_file():
            print(f"{name}: no such file", file=sys.stderr)
            return 2
        events, problem = check_file(name, validators)
        if problem:
            failed = True
            print(f"{name}: {problem}")
        else:
            print(f"{name}: {events} events")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
