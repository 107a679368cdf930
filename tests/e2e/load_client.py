"""Load and faults through the official Python MCP SDK.

Usage: load_client.py SERVER_BINARY HTTP_URL [HTTP_CALLS SESSIONS STDIO_CALLS]

  - Streamable HTTP (HTTP_URL, a running reliability server): HTTP_CALLS `echo` calls (default
    1,000) spread over SESSIONS concurrent sessions (default 50);
  - stdio (SERVER_BINARY spawned): STDIO_CALLS sequential `echo` calls (default 10,000).
Every answer must be the call's own (`echo(n)` returns n): zero lost, malformed or mismatched.
Throughput and p50/p99 latency are printed per transport. Then, on each transport, a tool that
panics, one that never returns (the client gives up after 0.5 s and cancels), and one that returns
NaN each get their answer, and the next call is served.

Prints one line per check and `N passed, M failed` at the end; exits non-zero on any failure.
"""

import asyncio
import sys
import time

import anyio
from checks import attempt, check, finish
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters



def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def report(transport, latencies, elapsed, wrong):
    latencies.sort()
    calls = len(latencies)
    print(
        f"load [{transport}]: {calls} calls, {calls / elapsed:.0f} calls/s, "
        f"p50 {percentile(latencies, 0.50) * 1000:.2f} ms, p99 {percentile(latencies, 0.99) * 1000:.2f} ms, "
        f"{wrong} lost, malformed or mismatched"
    )


async def echo_calls(client, numbers, latencies, problems):
    for n in numbers:
        start = time.perf_counter()
        try:
            result = await client.call_tool("echo", {"n": n})
        except Exception as e:  # noqa: BLE001 - a lost or unreadable answer
            problems.append(f"echo({n}) raised {type(e).__name__}: {e}")
            continue
        latencies.append(time.perf_counter() - start)
        if result.is_error or result.structured_content != {"result": n}:
            problems.append(f"echo({n}) answered {result.structured_content} {result.is_error}")


async def faults(client, transport):
    result = await client.call_tool("panics", {})
    text = " ".join(getattr(b, "text", "") for b in result.content)
    check(result.is_error and "panicked" in text, f"[{transport}] a panicking tool: isError ({text[:60]})")
    check(not (await client.call_tool("echo", {"n": 1})).is_error, f"[{transport}] served after the panic")

    try:
        await client.call_tool("never_returns", {}, read_timeout_seconds=0.5)
        check(False, f"[{transport}] a tool that never returns: expected the client to give up")
    except Exception as e:  # noqa: BLE001 - the SDK's timeout, which cancels the request
        check(True, f"[{transport}] a tool that never returns: the client gave up ({type(e).__name__})")
    check(not (await client.call_tool("echo", {"n": 2})).is_error, f"[{transport}] served after the cancelled call")

    result = await client.call_tool("not_a_number", {})
    text = " ".join(getattr(b, "text", "") for b in result.content)
    check(result.is_error and "NaN" in text, f"[{transport}] an unencodable value: isError ({text[:70]})")
    check(not (await client.call_tool("echo", {"n": 3})).is_error, f"[{transport}] served after the unencodable value")


async def http(url, calls, sessions):
    latencies, problems = [], []

    async def session(numbers):
        async with Client(url, mode="legacy", raise_exceptions=True) as client:
            await echo_calls(client, numbers, latencies, problems)

    start = time.perf_counter()
    async with anyio.create_task_group() as group:
        for s in range(sessions):
            group.start_soon(session, list(range(s, calls, sessions)))
    elapsed = time.perf_counter() - start
    report("http", latencies, elapsed, len(problems))
    check(not problems and len(latencies) == calls, f"[http] {calls} calls over {sessions} sessions, each answered with its own value")
    for problem in problems[:10]:
        print(f"     {problem}")
    async with Client(url, mode="legacy", raise_exceptions=True) as client:
        await faults(client, "http")


async def stdio(binary, calls):
    latencies, problems = [], []
    async with Client(StdioServerParameters(command=binary, args=[]), mode="legacy", raise_exceptions=True) as client:
        start = time.perf_counter()
        await echo_calls(client, range(calls), latencies, problems)
        elapsed = time.perf_counter() - start
        report("stdio", latencies, elapsed, len(problems))
        check(not problems and len(latencies) == calls, f"[stdio] {calls} sequential calls, each answered with its own value")
        for problem in problems[:10]:
            print(f"     {problem}")
        await faults(client, "stdio")


async def main():
    binary, url = sys.argv[1], sys.argv[2]
    http_calls, sessions, stdio_calls = (int(a) for a in (sys.argv[3:6] or ["1000", "50", "10000"]))
    for name, run in (("http", http(url, http_calls, sessions)), ("stdio", stdio(binary, stdio_calls))):
        await attempt(f"[{name}] run", run)
    finish()


if __name__ == "__main__":
    asyncio.run(main())
