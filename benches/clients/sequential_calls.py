"""The official Python SDK calling the HTTP bench's tool in turn, as an agent does: per call, the
median and 90th percentile wall time and the client's own CPU.

    target/release/http serve KIND        # prints "port N"; KIND: ours, ours-streamed, rmcp-once
    target/e2e-venv/bin/python benches/clients/sequential_calls.py http://127.0.0.1:N/mcp 1000

`mode="legacy"` opens a 2025-11-25 session (the SDK's venv is made by scripts/e2e-setup.sh).
"""

import statistics
import sys
import time

import anyio
from mcp.client.client import Client

URL, CALLS = sys.argv[1], int(sys.argv[2])


async def main():
    async with Client(URL, mode="legacy", raise_exceptions=True) as client:
        for _ in range(50):
            await client.call_tool("get_invoice", {"number": "INV-1"})
        times = []
        cpu = time.process_time()
        for _ in range(CALLS):
            started = time.perf_counter()
            result = await client.call_tool("get_invoice", {"number": "INV-1"})
            times.append((time.perf_counter() - started) * 1e3)
            assert not result.is_error, result
        cpu = (time.process_time() - cpu) * 1e3 / CALLS
        times.sort()
        p90 = times[int(0.9 * len(times))]
        print(f"median {statistics.median(times):.3f} ms  p90 {p90:.3f} ms  client CPU {cpu:.3f} ms/call")


anyio.run(main)
