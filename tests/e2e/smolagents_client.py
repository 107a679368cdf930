"""The invoices example through smolagents' own MCP adapter (`ToolCollection.from_mcp`, which is
mcpadapt), no model called.

Over stdio and Streamable HTTP, with structured output and without:
- every tool loaded, and written into what a request holds: the function-calling JSON a
  `ToolCallingAgent` sends (`get_tool_json_schema`, which raised `KeyError: 'type'` on an enum
  served as a `oneOf` of `const`s), and a `CodeAgent`'s and a `ToolCallingAgent`'s system
  prompts;
- every valid call of the shared call table made the way a `ToolCallingAgent` runs a model's
  tool call (`execute_tool_call`, which validates the arguments against the tool's inputs
  first). smolagents tells the model every argument is required unless the schema says
  `nullable`, so the model sends every one, `null` where the call leaves it out; a call with an
  argument the schema does not declare is not one smolagents lets through, and is skipped. The
  framework reads only the first content block: it must be the value.

Usage: smolagents_client.py SERVER_BINARY [HTTP_URL]. Prints `N passed, 0 failed`.
"""

import json

from mcp import StdioServerParameters
from smolagents import CodeAgent, ToolCallingAgent, ToolCollection
from smolagents.models import Model, get_tool_json_schema

from checks import check, describe, finish
from frameworks import VALID, answers, brief, declared, examples, strict_arguments, transports


def parameters(transport, target):
    if transport == "stdio":
        return StdioServerParameters(command=target, args=[])
    return {"url": target, "transport": "streamable-http"}


def text_of(value):
    if "Image" in type(value).__name__:  # a PIL image, or smolagents' AgentImage wrapping one
        return "image"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def run(transport, target, structured, calls=VALID, example="invoices"):
    what = f"[{transport} structured_output={structured}{'' if example == 'invoices' else ' ' + example}]"
    with ToolCollection.from_mcp(
        parameters(transport, target), trust_remote_code=True, structured_output=structured
    ) as collection:
        tools = {tool.name: tool for tool in collection.tools}
        check(len(tools) > 0, f"{what} every tool loaded ({len(tools)})")
        for name, tool in sorted(tools.items()):
            request = get_tool_json_schema(tool)
            check(request["function"]["name"] == name, f"{what} {name} written into a tool-calling request")
        model = Model(model_id="no-model")
        for agent in (ToolCallingAgent(tools=list(tools.values()), model=model), CodeAgent(tools=list(tools.values()), model=model)):
            prompt = agent.initialize_system_prompt()
            check(all(name in prompt for name in tools), f"{what} {type(agent).__name__}'s system prompt names every tool")
        agent = ToolCallingAgent(tools=list(tools.values()), model=model)
        if "list_invoices" in tools:
            status = get_tool_json_schema(tools["list_invoices"])["function"]["parameters"]["properties"]["status"]
            check(status.get("enum", [])[:2] == ["open", "paid"], f"{what} the model is told an enum's values: {status.get('enum')}")
        for name, arguments, pattern in calls:
            schema = {"properties": tools[name].inputs}
            if not declared(schema, arguments):
                continue
            sent = {key: arguments.get(key) for key in tools[name].inputs}
            sent = strict_arguments(schema, sent)
            call = f"{what} {name} {json.dumps(sent)}"
            try:
                text = text_of(agent.execute_tool_call(name, sent))
            except Exception as error:  # noqa: BLE001 - the framework's refusal is the failure
                check(False, f"{call}: {describe(error)}")
                continue
            check(answers(pattern, text), f"{call}: the value ({brief(text)})")


runs = [(transport, target, structured, VALID, "invoices") for transport, target in transports() for structured in (False, True)]
runs += [("stdio", binary, True, calls, example) for example, binary, calls in examples()]
for transport, target, structured, calls, example in runs:
    try:
        run(transport, target, structured, calls, example)
    except Exception as error:  # noqa: BLE001 - reported, then the next run
        check(False, f"[{transport} structured_output={structured} {example}] smolagents failed: {describe(error)}")
finish()
