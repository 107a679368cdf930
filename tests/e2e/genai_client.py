"""The invoices example through google-genai's own MCP adapter, no model called.

What `generate_content(tools=[session])` runs, at every protocol version over stdio:
- every tool converted at once to Gemini's function declarations (`mcp_to_gemini_tools`, the
  converter that failed on a boolean `additionalProperties` and so gave a Gemini user no tool at
  all), with the enum values and bounds still there for the model to read;
- every valid call of the shared call table made the way the SDK makes a model's function call
  (a `GenerateContentResponse` holding the `function_call`, handed to
  `get_function_response_parts_async` with the SDK's `McpToGenAiToolAdapter`), and the function
  response part it builds, the next request's body, serialized: a result, never an error.

Then the same for the other examples beside it, at 2025-11-25, with their calls
(`example_calls.json`).

Usage: genai_client.py SERVER_BINARY. Prints `N passed, 0 failed`.
"""

import json
import sys
from pathlib import Path

from google.genai import _extra_utils, _mcp_utils, types
from google.genai._adapters import McpToGenAiToolAdapter

import anyio

from checks import attempt, check, finish
from frameworks import examples
from stdio_session import VERSIONS, connect

CALLS = json.loads((Path(__file__).parent / "invoice_calls.json").read_text())


def declarations(tools):
    """Every function declaration of the converted tools, by name."""
    converted = _mcp_utils.mcp_to_gemini_tools(tools)
    return {d.name: d for tool in converted for d in tool.function_declarations}


async def run(server, version, calls=None, example="invoices"):
    version = version if example == "invoices" else f"{version} {example}"
    async with connect(server, version.split()[0]) as client:
        listed = await client.list_tools()
        try:
            by_name = declarations(listed.tools)
        except Exception as error:  # the whole list fails at once
            check(False, f"[{version}] google-genai converts every tool: {error!r}")
            return
        check(
            sorted(by_name) == sorted(t.name for t in listed.tools),
            f"[{version}] google-genai converts every tool ({len(by_name)})",
        )
        if example == "invoices":
            status = by_name["count_invoices"].parameters.properties["status"]
            check(
                status.enum == ["open", "paid"] or status.enum == ["open", "paid", None],
                f"[{version}] the model is told the allowed values of an enum: {status.enum}",
            )
            lines = by_name["create_invoice"].parameters.properties["lines"]
            quantity = lines.items.properties["quantity"]
            check(
                (quantity.minimum, quantity.maximum) == (0, 4294967295),
                f"[{version}] a u32's range reaches the model as bounds: {quantity.minimum}..{quantity.maximum}",
            )

        adapter = McpToGenAiToolAdapter(client, listed)
        function_map = {tool.name: adapter for tool in listed.tools}
        for name, arguments, *_ in calls or CALLS["valid"]:
            what = f"[{version}] {name} {json.dumps(arguments)} through google-genai"
            response = types.GenerateContentResponse(
                candidates=[
                    types.Candidate(
                        content=types.Content(
                            role="model",
                            parts=[types.Part(function_call=types.FunctionCall(name=name, args=arguments))],
                        )
                    )
                ]
            )
            parts = await _extra_utils.get_function_response_parts_async(response, function_map)
            check(len(parts) == 1, f"{what}: one function response")
            answer = parts[0].function_response.response
            check("result" in answer and "error" not in answer, f"{what}: a result, not an error: {str(answer)[:200]}")
            body = types.Content(role="user", parts=parts).model_dump_json(exclude_none=True)
            check(name in body and len(body) > 0, f"{what}: the next request's body is written")



async def main():
    for version in VERSIONS:
        await attempt(f"[{version}] session", run(sys.argv[1], version))
    for example, binary, calls in examples():
        await attempt(f"[{example}] session", run(binary, "2025-11-25", calls, example))
    finish()


anyio.run(main)
