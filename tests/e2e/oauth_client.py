"""The official Python SDK's OAuth client against the invoices example served as an OAuth 2.1
resource server, with a real authorization server (oidc-provider) issuing the tokens.

    python oauth_client.py http://127.0.0.1:PORT/mcp http://127.0.0.1:AS_PORT

The client discovers the authorization server through the server's Protected Resource Metadata
(RFC 9728), gets a token by the client-credentials grant for the server's resource (RFC 8707),
calls tools, is asked to step up (403 insufficient_scope) by a tool that needs a scope its
token lacks, and is served once it has.
"""

import sys

import anyio
import httpx2
from checks import attempt, check, finish
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

SERVER, ISSUER = sys.argv[1], sys.argv[2]


class Memory:
    """Tokens and client information kept in memory, and every token the client was given."""

    def __init__(self):
        self.tokens = None
        self.client = None
        self.issued = []

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.issued.append(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def unauthenticated():
    async with httpx2.AsyncClient() as http:
        response = await http.post(
            SERVER,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers={"Accept": "application/json, text/event-stream"},
        )
    challenge = response.headers.get("www-authenticate", "")
    check(response.status_code == 401, f"a request without a token gets 401 (got {response.status_code})")
    check(
        'resource_metadata="' in challenge and "/.well-known/oauth-protected-resource/mcp" in challenge,
        f"the challenge names the metadata document: {challenge}",
    )
    async with httpx2.AsyncClient() as http:
        response = await http.post(
            SERVER,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers={"Accept": "application/json, text/event-stream", "Authorization": "Bearer forged.token.here"},
        )
    challenge = response.headers.get("www-authenticate", "")
    check(
        response.status_code == 401 and 'error="invalid_token"' in challenge,
        f"a forged token gets 401 invalid_token: {response.status_code} {challenge}",
    )


async def authorized(version_mode):
    storage = Memory()
    provider = ClientCredentialsOAuthProvider(
        server_url=SERVER,
        storage=storage,
        client_id="billing-agent",
        client_secret="e2e-client-secret",
        issuer=ISSUER,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=30) as http:
        transport = streamable_http_client(SERVER, http_client=http)
        async with Client(transport, mode=version_mode, raise_exceptions=True) as client:
            tools = await client.list_tools()
            names = sorted(t.name for t in tools.tools)
            check("mark_paid" in names and "list_invoices" in names, f"[{version_mode}] tools listed: {names}")
            first = storage.issued[0] if storage.issued else None
            check(
                first is not None and first.scope == "mcp:tools",
                f"[{version_mode}] the first token grants what the 401 asked for: {first and first.scope}",
            )
            listed = await client.call_tool("list_invoices", {})
            check(not listed.is_error, f"[{version_mode}] list_invoices is served with the first token")

            paid = await client.call_tool("mark_paid", {"number": "INV-1"})
            check(not paid.is_error, f"[{version_mode}] mark_paid is served after stepping up: {paid.content}")
            scopes = (storage.tokens.scope or "").split() if storage.tokens else []
            check(
                len(storage.issued) == 2 and "invoices:write" in scopes and "mcp:tools" in scopes,
                f"[{version_mode}] the client stepped up once, to {scopes}",
            )


async def main():
    await attempt("unauthenticated requests", unauthenticated())
    for mode in ["legacy", "auto"]:
        await attempt(f"[{mode}] authorized session", authorized(mode))
    finish()


anyio.run(main)
