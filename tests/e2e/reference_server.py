"""A server written with the official Python SDK (`MCPServer`), for telling a framework's own
behaviour from one this toolkit causes: a framework script runs the same check against it, and
what fails there too is the framework's (the compatibility table in the docs names it).

Its one tool, `get_invoice`, answers like the invoices example's.

Usage: reference_server.py (serves stdio).
"""

from mcp.server.mcpserver import MCPServer

server = MCPServer("reference")


@server.tool()
def get_invoice(number: str) -> dict:
    """Look up an invoice by its number."""
    return {"number": number, "customer": "Acme Corp"}


if __name__ == "__main__":
    server.run()
