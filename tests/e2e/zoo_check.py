"""Validates the zoo's served results with Python's jsonschema, independently of the Rust side.

Reads JSON lines {"tool", "version", "entry", "result"} (written by the e2e test from
tests/src/zoo.rs, at each protocol version the zoo serves at, whose schemas differ) and checks
every non-error result's structuredContent against that version's entry's outputSchema with
Draft 2020-12 and the FormatChecker (jsonschema's format extras installed, so date, date-time,
uuid, ... are checked). Prints one summary line; exits 1 listing the failures, if any.
"""

import json
import sys
from importlib.metadata import version

from jsonschema import Draft202012Validator

checker = Draft202012Validator.FORMAT_CHECKER
for needed in ("date", "date-time", "uuid"):
    if needed not in checker.checkers:
        sys.exit(f"the FormatChecker cannot check `{needed}`: install jsonschema[format]")

validators = {}
served = failed = refused = 0
failures = []
with open(sys.argv[1], encoding="utf-8") as lines:
    for line in lines:
        case = json.loads(line)
        result = case["result"]
        if result.get("isError"):
            refused += 1
            continue
        served += 1
        tool = case["tool"]
        key = (tool, case.get("version"))
        if key not in validators:
            schema = case["entry"]["outputSchema"]
            Draft202012Validator.check_schema(schema)
            validators[key] = Draft202012Validator(schema, format_checker=checker)
        errors = list(validators[key].iter_errors(result["structuredContent"]))
        if errors:
            failed += 1
            for error in errors[:3]:
                where = "$" + "".join(f"[{p!r}]" for p in error.absolute_path)
                failures.append(f"{tool} at {case.get('version') or '2025-11-25'}: {where}: {error.message[:200]}")

print(
    f"zoo (python jsonschema {version('jsonschema')}, Draft 2020-12, formats checked): "
    f"{len({tool for tool, _ in validators})} types at {len({v for _, v in validators})} versions, {served} results validated, {failed} failed, {refused} refused by the server"
)
if failures:
    print("\n".join(failures[:40]))
    sys.exit(1)
