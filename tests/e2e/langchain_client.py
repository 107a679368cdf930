"""The invoices example through LangChain's own MCP adapter (`langchain-mcp-adapters`), no model
called. It pins `mcp<2`, so it negotiates 2025-11-25, from a venv of its own.

Over stdio and Streamable HTTP:
- every tool loaded as a LangChain tool (`MultiServerMCPClient.get_tools`), and converted to
  OpenAI's tool format with `convert_to_openai_tool`, plain and strict. LangChain's strict
  conversion closes every object and lists every property in `required`; what it writes must
  be what OpenAI's strict mode accepts (`strict_problems`);
- every valid call of the shared call table made the way an agent runs a model's tool call
  (`ainvoke` with a `tool_call`), handing back a `ToolMessage` whose content is the value: not
  an error, not the repr of a result object.

Usage: langchain_client.py SERVER_BINARY [HTTP_URL]. Prints `N passed, 0 failed`.
"""

import asyncio
import json

from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_mcp_adapters.client import MultiServerMCPClient

from checks import attempt, check, finish
from frameworks import VALID, answers, brief, examples, strict_problems, transports


def connection(transport, target):
    if transport == "stdio":
        return {"command": target, "args": [], "transport": "stdio"}
    return {"url": target, "transport": "streamable_http"}


def content_text(content):
    """A `ToolMessage`'s content as the model reads it: text, and `image` for an image block."""
    if isinstance(content, str):
        return content
    return " ".join(block.get("text") or block.get("type", "") for block in content)


async def run(transport, target, calls=VALID, example="invoices"):
    what = f"[{transport}{'' if example == 'invoices' else ' ' + example}]"
    client = MultiServerMCPClient({"invoices": connection(transport, target)})
    tools = {tool.name: tool for tool in await client.get_tools()}
    check(len(tools) > 0, f"{what} every tool loaded ({len(tools)})")
    for name, tool in sorted(tools.items()):
        plain = convert_to_openai_tool(tool)
        strict = convert_to_openai_tool(tool, strict=True)
        check(plain["function"]["name"] == name and strict["function"]["strict"] is True, f"{what} {name} converted for OpenAI, plain and strict")
        problems = strict_problems(strict["function"]["parameters"])
        check(not problems, f"{what} {name}'s strict conversion is what OpenAI's strict mode accepts: {problems}")
    for name, arguments, pattern in calls:
        call = f"{what} {name} {json.dumps(arguments)}"
        message = await tools[name].ainvoke({"type": "tool_call", "id": "call_1", "name": name, "args": arguments})
        text = content_text(message.content)
        check(message.status == "success" and answers(pattern, text), f"{call}: the value ({brief(text)})")


async def main():
    for transport, target in transports():
        await attempt(f"[{transport}] langchain", run(transport, target))
    for example, binary, calls in examples():
        await attempt(f"[{example}] langchain", run("stdio", binary, calls, example))
    finish()


asyncio.run(main())
