"""How the Python e2e clients reach a server over stdio at one protocol version: the one place
that knows how the SDK is made to speak each version."""

import mcp.client.session as client_session
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

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
