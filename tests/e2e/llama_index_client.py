"""The invoices example through LlamaIndex's own MCP adapter (`llama-index-tools-mcp`), no model
called.

Over stdio and Streamable HTTP:
- every tool converted to a LlamaIndex `FunctionTool` (its arguments become a pydantic model
  built from the `inputSchema`, `create_model_from_json_schema`, which turned an enum reached
  through `$ref` into an object and refused valid values) and written into an OpenAI tool
  definition (`to_openai_tool`);
- every valid call of the shared call table: its arguments validated by that pydantic model
  (what a function-calling agent's parsed tool call goes through), then `acall`, whose raw output
  holds the tool's value.

LlamaIndex gives the model `str()` of the SDK's `CallToolResult` as the tool's text, for every
server: checked here against the official Python SDK's server (`reference_server.py`) in the
same run, and named in the compatibility table.

Usage: llama_index_client.py SERVER_BINARY [HTTP_URL]. Prints `N passed, 0 failed`.
"""

import json
import sys
from pathlib import Path

import anyio
from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

from checks import attempt, check, finish
from frameworks import VALID, answers, brief, examples, transports


def client(transport, target):
    return BasicMCPClient(target, args=[]) if transport == "stdio" else BasicMCPClient(target)


def raw_text(result):
    """The tool's value in the SDK's `CallToolResult` LlamaIndex hands back as `raw_output`."""
    return " ".join(getattr(block, "text", None) or getattr(block, "type", "") for block in result.content)


async def run(transport, target, calls=VALID, example="invoices"):
    what = f"[{transport}{'' if example == 'invoices' else ' ' + example}]"
    tools = {tool.metadata.name: tool for tool in await McpToolSpec(client=client(transport, target)).to_tool_list_async()}
    check(len(tools) > 0, f"{what} every tool converted ({len(tools)})")
    for name, tool in sorted(tools.items()):
        definition = tool.metadata.to_openai_tool()
        check(definition["function"]["name"] == name, f"{what} {name} written into an OpenAI tool definition")
    for name, arguments, pattern in calls:
        call = f"{what} {name} {json.dumps(arguments)}"
        fn_schema = tools[name].metadata.fn_schema
        try:
            fn_schema.model_validate(arguments)
        except Exception as error:  # noqa: BLE001 - a refusal of valid arguments is the failure
            check(False, f"{call}: LlamaIndex's argument model refuses it: {brief(str(error))}")
            continue
        output = await tools[name].acall(**arguments)
        result = output.raw_output
        text = raw_text(result)
        check(
            not output.is_error and not result.is_error and answers(pattern, text),
            f"{call}: the value ({brief(text)})",
        )


async def reference():
    """What LlamaIndex gives the model for the official SDK's server: the same repr."""
    server = BasicMCPClient(sys.executable, args=[str(Path(__file__).parent / "reference_server.py")])
    tools = {tool.metadata.name: tool for tool in await McpToolSpec(client=server).to_tool_list_async()}
    output = await tools["get_invoice"].acall(number="INV-1")
    check(
        output.content.startswith("meta=None content=[TextContent("),
        f"[reference] LlamaIndex gives the model the result's repr for an official-SDK server too ({brief(output.content)})",
    )


async def main():
    for transport, target in transports():
        await attempt(f"[{transport}] llama-index", run(transport, target))
    for example, binary, calls in examples():
        await attempt(f"[{example}] llama-index", run("stdio", binary, calls, example))
    await attempt("[reference] llama-index", reference())
    finish()


anyio.run(main)
