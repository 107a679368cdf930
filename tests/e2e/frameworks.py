"""What the agent-framework e2e scripts share: the invoices call table with the pattern each
answer must match, the arguments a strict (OpenAI) model sends, and the transports a script is
given on its command line.

A framework script is run as `SCRIPT SERVER_BINARY [HTTP_URL]`: it drives the binary (the
invoices example) over stdio and, given a URL, the same server over Streamable HTTP; then the
other examples beside it over stdio, with their calls (`example_calls.json`).
"""

import json
import re
import sys
from pathlib import Path

CALLS = json.loads((Path(__file__).parent / "invoice_calls.json").read_text())
# (tool, arguments, the pattern its answer's text matches; `image` for an image)
VALID = [(name, arguments, answer) for (name, arguments), answer in zip(CALLS["valid"], CALLS["answers"])]
EXAMPLE_CALLS = json.loads((Path(__file__).parent / "example_calls.json").read_text())["examples"]


def examples():
    """`[(example, its binary, its calls)]` for the other examples, built beside SERVER_BINARY."""
    here = Path(sys.argv[1]).parent
    return [(name, str(here / name), [tuple(call) for call in calls]) for name, calls in EXAMPLE_CALLS.items()]


def transports():
    """`[("stdio", SERVER_BINARY), ("http", URL)]`, the second only if a URL was given."""
    found = [("stdio", sys.argv[1])]
    if len(sys.argv) > 2:
        found.append(("http", sys.argv[2]))
    return found


def answers(pattern, text):
    """Whether `text`, what the framework handed back, is the tool's value: it matches `pattern`
    and is not an error message or the repr of a result object."""
    if not isinstance(text, str):
        text = json.dumps(text, ensure_ascii=False)
    wrong = ("CallToolResult", "TextContent(", '"isError": true', '"isError":true', "is_error=True", "Error executing", "error occurred")
    return re.search(pattern, text) is not None and not any(word in text for word in wrong)


def strict_arguments(schema, arguments):
    """The arguments as a model in OpenAI's strict mode sends them: every property of every
    object present, `null` for the ones the call leaves out."""
    if isinstance(arguments, dict) and isinstance(schema, dict):
        properties = schema.get("properties", {})
        filled = {key: strict_arguments(properties.get(key, {}), value) for key, value in arguments.items()}
        for key in properties:
            filled.setdefault(key, None)
        return filled
    if isinstance(arguments, list) and isinstance(schema, dict):
        return [strict_arguments(schema.get("items", {}), item) for item in arguments]
    return arguments


def declared(schema, arguments):
    """Whether every argument is a declared property: a strict model sends no other (the call
    table's calls with an extra argument are for clients that pass arguments through)."""
    return set(arguments) <= set(schema.get("properties", {}))


def brief(what):
    """`what` on one line, cut short for a check's message."""
    text = what if isinstance(what, str) else repr(what)
    return text.replace("\n", " ")[:160]


def strict_problems(schema, path="$", closed=True):
    """Where `schema` breaks the rules of OpenAI's strict mode (Structured Outputs) on objects:
    each closed with `"additionalProperties": false` (unless `closed` is false: not asked) and
    listing every property in `required`. Empty when a strict request with it is accepted."""
    found = []
    if isinstance(schema, dict):
        types = schema.get("type")
        types = types if isinstance(types, list) else [types]
        if "object" in types and "properties" in schema:
            if closed and schema.get("additionalProperties") is not False:
                found.append(f"{path}: not closed with additionalProperties false")
            missing = set(schema["properties"]) - set(schema.get("required", []))
            if missing:
                found.append(f"{path}: {sorted(missing)} not in required")
        for key, value in schema.items():
            if key == "properties":
                for name, inner in value.items():
                    found += strict_problems(inner, f"{path}.{name}", closed)
            elif key in ("items", "anyOf", "oneOf", "allOf", "$defs", "prefixItems"):
                inners = value.values() if isinstance(value, dict) and key == "$defs" else value
                for inner in inners if isinstance(inners, (list, type({}.values()))) else [inners]:
                    found += strict_problems(inner, f"{path}.{key}", closed)
    return found
