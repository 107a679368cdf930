"""How the Python e2e clients reach a server over stdio at one protocol version: the one place
that knows how the SDK is made to speak each version."""

import sys

import anyio
import mcp.client.session as client_session
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

from checks import attempt, finish

VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18"]


def connect(server, version, **callbacks):
    """A client of the server binary `server` speaking `version`, with the SDK's `callbacks`."""
    if version == "2026-07-28":
        mode = "auto"  # server/discover, the 2026-07-28 way to connect
        client_session.LATEST_HANDSHAKE_VERSION = "2025-11-25"
    else:
        mode = "legacy"  # the initialize handshake, offering `version`
        client_session.LATEST_HANDSHAKE_VERSION = version
    params = StdioServerParameters(command=server, args=[])
    return Client(params, mode=mode, raise_exceptions=True, **callbacks)


def run_at_every_version(run):
    """A script's whole run: `await run(SERVER_BINARY, version)` at each version (a version that
    raises is a failed check), then the closing tally and exit code."""

    async def main():
        for version in VERSIONS:
            await attempt(f"[{version}] session", run(sys.argv[1], version))
        finish()

    anyio.run(main)
