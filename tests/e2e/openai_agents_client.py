"""The invoices example through the OpenAI Agents SDK's own MCP adapter, no model called.

Over stdio and Streamable HTTP, with structured content used and not, and with and without strict
schema conversion:
- every tool converted to a `FunctionTool` (`MCPUtil.to_function_tool`), and, asked for strict,
  really strict: the SDK falls back to a non-strict schema silently (a log line) when its
  conversion refuses one, for example on a `$ref`. A tool without arguments is the exception:
  the SDK does not close an object declaring no property (the compatibility table says so);
- every tool written into a Responses API request and a Chat Completions request, strict where it
  was converted so;
- every valid call of the shared call table (and the other examples' calls, over stdio) made
  the way the runner makes a model's function call
  (`on_invoke_tool` with the arguments' JSON; in strict mode every property sent, `null` where
  the call leaves it out), handing back the tool's value: not the SDK's error text.

Usage: openai_agents_client.py SERVER_BINARY [HTTP_URL]. Prints `N passed, 0 failed`.
"""

import json

import anyio
from agents.mcp import MCPServerStdio, MCPServerStreamableHttp, MCPUtil
from agents.models.chatcmpl_converter import Converter as ChatConverter
from agents.models.openai_responses import Converter as ResponsesConverter
from agents.tool_context import ToolContext

from checks import attempt, check, finish
from frameworks import VALID, answers, brief, declared, examples, strict_arguments, transports


def server_for(transport, target, structured):
    if transport == "stdio":
        return MCPServerStdio(
            params={"command": target, "args": []},
            use_structured_content=structured,
            client_session_timeout_seconds=30,
        )
    return MCPServerStreamableHttp(
        params={"url": target}, use_structured_content=structured, client_session_timeout_seconds=30
    )


def schema_of(tool):
    """An MCP tool's `inputSchema` (`input_schema` in `mcp` 2)."""
    return getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", {})


def output_text(output):
    """The text the model would be given: the SDK's output items, joined."""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return " ".join(output_text(item) for item in output)
    if isinstance(output, dict):
        return output.get("text") or ("image" if output.get("type") == "image" else json.dumps(output))
    kind = getattr(output, "type", "")
    return getattr(output, "text", None) or ("image" if kind == "image" else repr(output))


async def run(transport, target, structured, strict, calls=VALID, example="invoices"):
    what = f"[{transport} structured={structured} strict={strict}{'' if example == 'invoices' else ' ' + example}]"
    async with server_for(transport, target, structured) as server:
        listed = await server.list_tools()
        tools = {tool.name: MCPUtil.to_function_tool(tool, server, strict) for tool in listed}
        listed_by = {tool.name: tool for tool in listed}
        check(len(tools) == len(listed) > 0, f"{what} every tool converted ({len(tools)})")
        # The SDK will not close an object that declares no property and does not say
        # `additionalProperties: false` (a tool without arguments, in the portable shape): it
        # would change what the schema admits. Strict mode has nothing to hold such a call to.
        expected = {name: strict and bool(schema_of(listed_by[name]).get("properties")) for name in tools}
        for name, tool in sorted(tools.items()):
            check(tool.strict_json_schema == expected[name], f"{what} {name} is {'strict' if expected[name] else 'not strict'}")
        responses = ResponsesConverter.convert_tools(list(tools.values()), handoffs=[]).tools
        check(
            len(responses) == len(tools) and all(t["strict"] == expected[t["name"]] for t in responses),
            f"{what} a Responses request carries every tool, strict where converted so",
        )
        chat = [ChatConverter.tool_to_openai(tool) for tool in tools.values()]
        check(
            all(t["function"]["strict"] == expected[t["function"]["name"]] for t in chat),
            f"{what} a Chat Completions request carries every tool, strict where converted so",
        )
        for name, arguments, pattern in calls:
            tool = tools[name]
            if strict:
                if not declared(tool.params_json_schema, arguments):
                    continue
                arguments = strict_arguments(tool.params_json_schema, arguments)
            call = f"{what} {name} {json.dumps(arguments)}"
            input_json = json.dumps(arguments)
            context = ToolContext(context=None, tool_name=name, tool_call_id="call_1", tool_arguments=input_json)
            output = await tool.on_invoke_tool(context, input_json)
            text = output_text(output)
            check(answers(pattern, text), f"{call}: the value ({brief(text)})")


async def main():
    for transport, target in transports():
        for structured in (False, True):
            for strict in (False, True):
                await attempt(f"[{transport}] openai-agents", run(transport, target, structured, strict))
    for example, binary, calls in examples():
        for strict in (False, True):
            await attempt(f"[{example}] openai-agents", run("stdio", binary, True, strict, calls, example))
    finish()


anyio.run(main)
