// End-to-end check of the invoices example with the official TypeScript MCP SDK, over
// Streamable HTTP.
//
// Usage: node ts_client.mjs http://127.0.0.1:PORT/mcp
//
// At 2025-11-25 (the SDK's own latest) and 2025-06-18 (asked for in `initialize`): lists the tools
// and calls every tool with valid and invalid arguments. (SDK 1.32.2 does not speak 2026-07-28;
// ts2_client.mjs, with the 2.x client, does.)
// The SDK's client
// validates `structuredContent` against each tool's `outputSchema` with Ajv and throws on a
// mismatch or a missing structured result; this script also asserts which tools advertise a
// schema and which results carry `structuredContent`. Prints `N passed, 0 failed` at the end.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CALLS,
  askingFor,
  checkAt,
  invalidCallsAreToolErrors,
  runAtVersions,
  catalogIsServed,
  unknownToolIsInvalidParams,
} from './ts_checks.mjs';

const STRUCTURED = CALLS.structured;
const UNSTRUCTURED = CALLS.unstructured;
const VALID_CALLS = CALLS.valid;

/** A transport whose `initialize` asks for the 2025 version it is made with. */
const AskingFor = askingFor(StreamableHTTPClientTransport);

async function main(version) {
  const url = new URL(process.argv[2]);
  const client = new Client({ name: 'mcp-tool-e2e', version: '0.0.0' });
  const check = (ok, what) => checkAt(ok, `[${version}] ${what}`);
  const transport = new AskingFor(url, version);
  await client.connect(transport);
  check(transport.protocolVersion === version, `negotiated ${transport.protocolVersion}`);
  const server = client.getServerVersion();
  check(server && server.name === 'mcp-tool-runtime', `server introduces itself (${JSON.stringify(server)})`);

  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  check(
    JSON.stringify(Object.keys(byName)) === JSON.stringify(tools.map((t) => t.name).sort()),
    'tools/list is in name order',
  );
  for (const name of STRUCTURED) {
    check(byName[name]?.outputSchema?.type === 'object', `${name} advertises an object outputSchema`);
  }
  const icons = byName.get_invoice?.icons ?? [];
  check(
    icons.length === 1 && icons[0].src.startsWith('data:image/svg+xml'),
    `get_invoice lists its icon (SEP-973): ${JSON.stringify(icons)}`,
  );
  for (const name of UNSTRUCTURED) {
    check(byName[name] && byName[name].outputSchema === undefined, `${name} advertises no outputSchema`);
  }

  for (const [name, args] of VALID_CALLS) {
    const what = `call ${name} ${JSON.stringify(args)}`;
    let result;
    try {
      // Validates structuredContent against the outputSchema (Ajv) and throws on mismatch.
      result = await client.callTool({ name, arguments: args });
    } catch (e) {
      check(false, `${what}: client threw ${e}`);
      continue;
    }
    check(!result.isError, `${what}: not an error`);
    if (STRUCTURED.includes(name)) {
      check(result.structuredContent !== null && typeof result.structuredContent === 'object', `${what}: structuredContent is an object`);
      if (name in CALLS.raw_2026) {
        const inner = result.structuredContent?.result;
        const type = Array.isArray(inner) ? 'array' : Number.isInteger(inner) ? 'integer' : typeof inner;
        check(type === CALLS.raw_2026[name], `${what}: the ${CALLS.raw_2026[name]} is wrapped under result`);
      }
    } else {
      check(result.structuredContent === undefined, `${what}: no structuredContent`);
    }
    if (name === 'invoice_badge') {
      check(result.content[0].type === 'image' && result.content[0].mimeType === 'image/png', `${what}: an image/png block`);
    }
  }

  await invalidCallsAreToolErrors(client, check);
  await unknownToolIsInvalidParams(client, check);
  await catalogIsServed(client, check, version);

  await client.close();
}

await runAtVersions(['2025-11-25', '2025-06-18'], main);
