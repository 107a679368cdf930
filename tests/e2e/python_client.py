"""End-to-end check of the invoices example with the official Python MCP SDK (mcp 2.x).

Usage: python_client.py SERVER_BINARY

Spawns the server over stdio once per protocol version (2026-07-28, 2025-11-25, 2025-06-18),
lists its tools and calls every tool with valid and invalid arguments, then lists, gets and
reads every prompt and resource. The SDK's client
validates `structuredContent` against each tool's `outputSchema` and raises on a mismatch or a
missing structured result; on top of that this script asserts that every tool that should
advertise a schema does and every result that should carry `structuredContent` does, at every
version (rmcp strips non-object schemas and structured content for older peers, so a tool whose
structured output vanished would pass a naive check).

Prints one line per check and `N passed, 0 failed` at the end; exits non-zero on any failure.
"""

import asyncio
import json
import pathlib
import sys

from mcp import MCPError

from stdio_session import VERSIONS, connect

# The call tables, shared with ts_client.mjs.
with open(pathlib.Path(__file__).with_name("invoice_calls.json")) as tables:
    CALLS = json.load(tables)
# Tools whose listing must carry an outputSchema, and whose results must carry structuredContent.
STRUCTURED = set(CALLS["structured"])
# Tools that carry no structured output by design.
UNSTRUCTURED = set(CALLS["unstructured"])
VALID_CALLS = [tuple(call) for call in CALLS["valid"]]
# (tool, arguments, words the error text must contain)
INVALID_CALLS = [tuple(call) for call in CALLS["invalid"]]
# Tools whose type is not an object: served raw at 2026-07-28 (SEP-2106), this JSON type.
RAW_2026 = CALLS["raw_2026"]
JSON_TYPES = {"array": list, "integer": int, "string": str, "object": dict}
# The prompts and resources.
CATALOG = CALLS["catalog"]


def raw(version):
    return version >= "2026-07-28"


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
            print(f"ok   {what}")
        else:
            self.failed += 1
            print(f"FAIL {what}")


def text_of(result):
    return " ".join(getattr(block, "text", "") for block in result.content)


async def check_catalog(client, version, checks):
    """Lists, gets and reads every prompt and resource, and completes the prompt's argument."""
    prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    checks.check(set(prompts) == set(CATALOG["prompts"]), f"[{version}] prompts/list names {sorted(prompts)}")
    for name, expected in CATALOG["prompts"].items():
        arguments = {a.name: bool(a.required) for a in prompts[name].arguments or []}
        checks.check(arguments == expected["arguments"], f"[{version}] {name} lists its arguments {arguments}")
    resources = {str(r.uri): r for r in (await client.list_resources()).resources}
    checks.check(set(resources) == set(CATALOG["resources"]), f"[{version}] resources/list {sorted(resources)}")
    templates = {t.uri_template: t for t in (await client.list_resource_templates()).resource_templates}
    checks.check(set(templates) == set(CATALOG["templates"]), f"[{version}] resources/templates/list {sorted(templates)}")
    for uri, mime in CATALOG["templates"].items():
        checks.check(templates[uri].mime_type == mime, f"[{version}] {uri} reads {mime}")
    reads = [(uri, mime, words) for uri, (mime, words) in CATALOG["resources"].items()] + [tuple(r) for r in CATALOG["reads"]]
    for uri, mime, words in reads:
        contents = (await client.read_resource(uri)).contents
        checks.check(
            len(contents) == 1 and contents[0].mime_type == mime and words in contents[0].text,
            f"[{version}] resources/read {uri}: {mime} holding {words!r}",
        )
    # MCP Apps: the tool names its view, the view carries its sandbox settings, and the app-only
    # tool is not offered to this client (it declared no UI extension).
    view = CATALOG["view"]
    tools = {t.name: t for t in (await client.list_tools()).tools}
    meta = tools[view["tool"]].meta or {}
    checks.check(
        meta.get("ui", {}).get("resourceUri") == view["uri"] and meta.get("ui/resourceUri") == view["uri"],
        f"[{version}] {view['tool']} names its view {view['uri']} in _meta",
    )
    checks.check(view["app_only"] not in tools, f"[{version}] the app-only {view['app_only']} is not listed to a client without views")
    content = (await client.read_resource(view["uri"])).contents[0]
    ui = (content.meta or {}).get("ui", {})
    checks.check(
        ui.get("prefersBorder") == view["prefersBorder"] and ui.get("csp", {}).get("resourceDomains") == view["resourceDomains"],
        f"[{version}] the view's contents carry its _meta.ui {ui}",
    )
    try:
        await client.read_resource(CATALOG["missing"])
        checks.check(False, f"[{version}] reading {CATALOG['missing']}: expected a JSON-RPC error")
    except MCPError as e:
        expected = -32602 if raw(version) else -32002
        checks.check(e.error.code == expected, f"[{version}] reading {CATALOG['missing']} is JSON-RPC error {e.error.code}")

    # The prompt embeds an open invoice: one made here, so that no earlier call decides it.
    made = await client.call_tool("create_invoice", {"customer": "Initech", "lines": [{"item": "Stapler", "quantity": 1, "unit_cents": 900}]})
    number = (made.structured_content or {}).get("number")
    got = await client.get_prompt("chase_payment", {"number": number, "tone": "firm"})
    embedded, asked = (got.messages + [None, None])[:2]
    checks.check(
        embedded is not None
        and embedded.content.type == "resource"
        and str(embedded.content.resource.uri) == f"invoices://{number}"
        and "Initech" in embedded.content.resource.text,
        f"[{version}] prompts/get chase_payment embeds invoice {number}",
    )
    checks.check(asked is not None and "firm" in asked.content.text, f"[{version}] chase_payment asks for a firm reminder")
    name, arguments, words = CATALOG["paid"]
    try:
        await client.get_prompt(name, arguments)
        checks.check(False, f"[{version}] {name} {arguments}: expected a JSON-RPC error")
    except MCPError as e:
        checks.check(e.error.code == -32602 and words in e.error.message, f"[{version}] {name} {arguments}: {e.error.message}")
    from mcp.types import PromptReference

    name, argument, typed, expected = CATALOG["complete"]
    completion = (await client.complete(PromptReference(type="ref/prompt", name=name), {"name": argument, "value": typed})).completion
    checks.check(set(expected) <= set(completion.values), f"[{version}] completion of {name}.{argument} {typed!r}: {completion.values}")


async def run_version(server, version, checks):
    async with connect(server, version) as client:
        checks.check(client.protocol_version == version, f"[{version}] negotiated {client.protocol_version}")

        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        checks.check(set(tools) == STRUCTURED | UNSTRUCTURED, f"[{version}] tools/list names {sorted(tools)}")
        for name in sorted(STRUCTURED):
            schema = tools[name].output_schema
            expected = RAW_2026.get(name, "object") if raw(version) else "object"
            # An enum's own schema is a `type: string` with its `enum` (SEP-2106, portable).
            types = [schema.get("type")] if schema and "oneOf" not in schema else [b.get("type") for b in (schema or {}).get("oneOf", [])]
            checks.check(
                schema is not None and types and all(t == expected for t in types),
                f"[{version}] {name} advertises an outputSchema of type {expected}",
            )
        for name in sorted(UNSTRUCTURED):
            checks.check(tools[name].output_schema is None, f"[{version}] {name} advertises no outputSchema")
        for name, tool in sorted(tools.items()):
            # Unknown arguments are ignored (google-genai's converter fails on a boolean
            # `additionalProperties`), and every object lists its properties (smolagents reads them).
            checks.check(
                "additionalProperties" not in tool.input_schema
                and isinstance(tool.input_schema.get("properties"), dict),
                f"[{version}] {name} inputSchema lists its properties and says nothing of others",
            )
        icons = tools["get_invoice"].icons or []
        checks.check(
            [str(icon.src).startswith("data:image/svg+xml") for icon in icons] == [True],
            f"[{version}] get_invoice lists its icon (SEP-973): {icons}",
        )

        for name, arguments in VALID_CALLS:
            what = f"[{version}] call {name} {arguments}"
            try:
                # The SDK validates structuredContent against the outputSchema and raises on mismatch.
                result = await client.call_tool(name, arguments)
            except Exception as e:  # noqa: BLE001 - any client-side rejection is a failure
                checks.check(False, f"{what}: client raised {type(e).__name__}: {e}")
                continue
            checks.check(not result.is_error, f"{what}: not an error ({text_of(result)[:80]!r})")
            if name in STRUCTURED:
                expected = RAW_2026.get(name, "object") if raw(version) else "object"
                checks.check(
                    isinstance(result.structured_content, JSON_TYPES[expected]),
                    f"{what}: structuredContent is {expected} ({type(result.structured_content).__name__})",
                )
            else:
                checks.check(result.structured_content is None, f"{what}: no structuredContent")
            if name == "invoice_badge":
                image = result.content[0]
                checks.check(
                    image.type == "image" and image.mime_type == "image/png" and len(image.data) > 0,
                    f"{what}: an image/png block",
                )
            if name == "invoice_documents":
                links = [b for b in result.content if b.type == "resource_link"]
                checks.check(len(links) == 2 and all(str(l.uri).startswith("invoices://") for l in links), f"{what}: two resource links")
            if name == "get_invoice" and arguments["number"] == "INV-404":
                checks.check(result.structured_content == {}, f"{what}: nothing is served as {{}}")
            if name in RAW_2026 and not raw(version):
                checks.check(
                    isinstance(result.structured_content.get("result"), JSON_TYPES[RAW_2026[name]]),
                    f"{what}: the value is wrapped under result",
                )
            if name == "count_invoices":
                count = result.structured_content if raw(version) else result.structured_content["result"]
                checks.check(count == (1 if arguments else 2), f"{what}: counted {count}")
            if name == "invoice_status":
                status = result.structured_content if raw(version) else result.structured_content["result"]
                checks.check(status in ("open", "paid"), f"{what}: status {status}")

        for name, arguments, words in INVALID_CALLS:
            what = f"[{version}] invalid call {name} {arguments}"
            try:
                result = await client.call_tool(name, arguments)
            except Exception as e:  # noqa: BLE001
                checks.check(False, f"{what}: client raised {type(e).__name__}: {e}")
                continue
            text = text_of(result)
            checks.check(result.is_error, f"{what}: isError")
            checks.check(all(w in text for w in words), f"{what}: text names the problem ({text})")

        await check_catalog(client, version, checks)

        try:
            await client.call_tool("no_such_tool", {})
            checks.check(False, f"[{version}] unknown tool: expected a JSON-RPC error")
        except MCPError as e:
            checks.check(e.error.code == -32602, f"[{version}] unknown tool is JSON-RPC error {e.error.code}")


async def main():
    server = sys.argv[1]
    checks = Checks()
    for version in VERSIONS:
        try:
            await run_version(server, version, checks)
        except Exception as e:  # noqa: BLE001
            checks.check(False, f"[{version}] session failed: {type(e).__name__}: {e}")
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed or not checks.passed else 0)


if __name__ == "__main__":
    asyncio.run(main())
