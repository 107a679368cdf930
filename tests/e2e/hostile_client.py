"""Hostile input through the official Python MCP SDK: every request gets an answer the SDK reports.

Usage: hostile_client.py SERVER_BINARY HTTP_URL

Over stdio (the server spawned with SERVER_BINARY) and over Streamable HTTP (HTTP_URL, a running
server), in one session each:
  - arguments nested deeper than the server reads (200 levels) come back as a JSON-RPC error (an MCPError
    raised for that call), not silence or a bare HTTP status;
  - a request over the server's 4 MiB limit comes back as a JSON-RPC error naming the limit;
  - arguments that are not an object come back as an isError result;
and the same session then serves a valid call.

Prints one line per check and `N passed, M failed` at the end; exits non-zero on any failure.
"""

import asyncio
import sys

from mcp import MCPError, types
from checks import attempt, check, finish
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters



def nested(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


async def expect_error(client, what, arguments, words):
    try:
        result = await asyncio.wait_for(client.call_tool("get_invoice", arguments), 20)
        check(False, f"{what}: expected a JSON-RPC error, got a result {result}")
    except MCPError as e:
        message = e.error.message
        check(all(w in message for w in words), f"{what}: JSON-RPC error {e.error.code}: {message[:160]}")
    except Exception as e:  # noqa: BLE001 - a transport failure or a timeout is what this guards against
        check(False, f"{what}: client raised {type(e).__name__}: {e}")


async def unvalidated_call(client, arguments):
    """`tools/call` with arguments the SDK's own models refuse to build (not an object): built
    without validation, sent and read by the SDK's session as any other call."""
    params = types.CallToolRequestParams.model_construct(name="get_invoice", arguments=arguments)
    return await client.session.send_request(
        types.CallToolRequest(params=params), client.session._call_tool_adapter
    )


async def run(transport, server):
    async with Client(server, mode="legacy", raise_exceptions=True) as client:
        # 200 levels: past serde_json's limit of 128, within what the SDK serializes.
        await expect_error(client, f"[{transport}] arguments nested 200 deep", {"number": nested(200)}, ["recursion limit"])
        await expect_error(
            client, f"[{transport}] a 5 MB request", {"number": "x" * (5 << 20)}, ["limit of 4194304 bytes"]
        )
        for arguments in ([1, 2], "INV-1"):
            try:
                result = await unvalidated_call(client, arguments)
                text = " ".join(getattr(b, "text", "") for b in result.content)
                check(
                    result.is_error and "must be a JSON object" in text,
                    f"[{transport}] arguments {arguments!r}: isError ({text[:80]})",
                )
            except Exception as e:  # noqa: BLE001
                check(False, f"[{transport}] arguments {arguments!r}: client raised {type(e).__name__}: {e}")
        result = await client.call_tool("get_invoice", {"number": "INV-1"})
        check(not result.is_error, f"[{transport}] the same session serves a valid call after all of it")


async def main():
    binary, url = sys.argv[1], sys.argv[2]
    for transport, server in (("stdio", StdioServerParameters(command=binary, args=[])), ("http", url)):
        await attempt(f"[{transport}] session", run(transport, server))
    finish()


if __name__ == "__main__":
    asyncio.run(main())
