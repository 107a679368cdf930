"""The invoices example through Pydantic AI's own MCP toolset (`MCPToolset`, on FastMCP's
client), no model called.

Over stdio and Streamable HTTP:
- every tool's definition as an OpenAI model and a Google model write it into their requests
  (each model's schema transformer applied, as `customize_request_parameters` does before a
  request, then its own mapping). For OpenAI, Pydantic AI sends a tool strict when it judges its
  schema strict-compatible, which takes every property of every object in `required`: a tool
  with an optional argument goes non-strict, by Pydantic AI's design (the compatibility table
  says so), and every other tool must go strict;
- an agent run whose model is a local function (`FunctionModel`): it asks for every valid call
  of the shared call table, one tool call each, and reads what Pydantic AI hands back in the next
  request (the `ToolReturnPart`, after Pydantic AI validated the arguments against the schema
  and called the tool): the value, never a retry prompt;
- the same over stdio with the server in the strict schema profile (`INVOICES_SCHEMA=strict`):
  every tool then goes strict, and every call, made as a strict model makes it (every property
  sent, `null` where the call leaves it out), answers.

Usage: pydantic_ai_client.py SERVER_BINARY [HTTP_URL]. Prints `N passed, 0 failed`.
"""

import json
import os

import anyio
from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelResponse, RetryPromptPart, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.google import GoogleModel, _function_declaration_from_tool
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.google import GoogleProvider
from pydantic_ai.providers.openai import OpenAIProvider

from checks import attempt, check, finish
from frameworks import VALID, answers, brief, declared, examples, strict_arguments, strict_problems, transports


def toolset(transport, target, env=None):
    client = StdioTransport(command=target, args=[], env=env) if transport == "stdio" else target
    return MCPToolset(client, tool_error_behavior="retry")


def returned_text(part):
    content = part.content
    if isinstance(content, str):
        return content
    if type(content).__name__ in ("BinaryContent", "BinaryImage") or getattr(content, "is_image", False):
        return "image"
    if isinstance(content, list):
        return " ".join(returned_text(type(part)(tool_name=part.tool_name, content=c)) for c in content)
    return json.dumps(content, default=str, ensure_ascii=False)


async def definitions(what, tool_defs, all_strict=False):
    parameters = ModelRequestParameters(function_tools=tool_defs)
    openai = OpenAIChatModel("gpt-4.1", provider=OpenAIProvider(api_key="no-key"))
    optional = {t.name: strict_problems(t.parameters_json_schema, closed=False) for t in tool_defs}
    for tool_def in openai.customize_request_parameters(parameters).function_tools:
        mapped = openai._map_tool_definition(tool_def, {})
        strict = all_strict or not optional[tool_def.name]
        check(
            (mapped["function"].get("strict") is True) == strict,
            f"{what} {tool_def.name}: an OpenAI request carries it {'strict' if strict else f'non-strict, for {optional[tool_def.name]}'}",
        )
    google = GoogleModel("gemini-2.5-flash", provider=GoogleProvider(api_key="no-key"))
    for tool_def in google.customize_request_parameters(parameters).function_tools:
        declaration = _function_declaration_from_tool(tool_def)
        check(
            declaration["name"] == tool_def.name and "parameters_json_schema" in declaration,
            f"{what} {tool_def.name}: a Google request carries its declaration",
        )


async def run(transport, target, strict_profile=False, table=VALID, example="invoices"):
    what = f"[{transport}{' strict profile' if strict_profile else ''}{'' if example == 'invoices' else ' ' + example}]"
    calls = list(table)
    seen = {}
    schemas = {}

    def model(messages, info: AgentInfo):
        if not seen:
            seen["tools"] = info.function_tools
            schemas.update({t.name: t.parameters_json_schema for t in info.function_tools})
            if strict_profile:
                # What a strict model sends: declared arguments only, every one, null if left out.
                calls[:] = [
                    (name, strict_arguments(schemas[name], arguments), pattern)
                    for name, arguments, pattern in calls
                    if declared(schemas[name], arguments)
                ]
        for part in messages[-1].parts:
            if isinstance(part, (ToolReturnPart, RetryPromptPart)):
                seen.setdefault("returns", []).append(part)
        if len(seen.get("returns", [])) >= len(calls):
            return ModelResponse(parts=[TextPart("done")])
        name, arguments, _ = calls[len(seen.get("returns", []))]
        return ModelResponse(parts=[ToolCallPart(name, arguments)])

    env = {**os.environ, "INVOICES_SCHEMA": "strict"} if strict_profile else None
    tools = toolset(transport, target, env)
    agent = Agent(FunctionModel(model), toolsets=[tools], retries=len(calls) + 1)
    async with tools:
        result = await agent.run("Use every tool.")
    check(result.output == "done", f"{what} the agent run ends")
    tool_defs = seen.get("tools", [])
    check(len(tool_defs) > 0, f"{what} every tool defined ({len(tool_defs)})")
    await definitions(what, tool_defs, all_strict=strict_profile)
    for (name, arguments, pattern), part in zip(calls, seen.get("returns", [])):
        call = f"{what} {name} {json.dumps(arguments)}"
        if isinstance(part, RetryPromptPart):
            check(False, f"{call}: Pydantic AI asked the model to retry: {brief(part.model_response())}")
            continue
        text = returned_text(part)
        check(part.tool_name == name and answers(pattern, text), f"{call}: the value ({brief(text)})")


async def main():
    for transport, target in transports():
        await attempt(f"[{transport}] pydantic-ai", run(transport, target))
    await attempt("[stdio strict profile] pydantic-ai", run("stdio", transports()[0][1], strict_profile=True))
    for example, binary, calls in examples():
        await attempt(f"[{example}] pydantic-ai", run("stdio", binary, table=calls, example=example))
    finish()


anyio.run(main)
