// End-to-end check of the invoices example with the official TypeScript MCP client 2.x
// (`@modelcontextprotocol/client`), over Streamable HTTP, at every protocol version it speaks:
// 2026-07-28 (stateless, pinned with `versionNegotiation`), and 2025-11-25 and 2025-06-18 (the
// legacy `initialize` handshake, asking for the version).
//
// Usage: node ts2_client.mjs http://127.0.0.1:PORT/mcp
//
// Lists the tools and calls every tool with valid and invalid arguments (the call tables shared
// with python_client.py and ts_client.mjs). The client validates `structuredContent` against
// each tool's `outputSchema` and throws on a mismatch; at 2026-07-28 a tool returning a list, a
// number or an enum is served its value as it is (SEP-2106). Prints `N passed, 0 failed`.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  CALLS,
  askingFor,
  checkAt,
  invalidCallsAreToolErrors,
  runAtVersions,
  catalogIsServed,
  unknownToolIsInvalidParams,
} from './ts_checks.mjs';

const typeOf = (value) =>
  Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

/** A transport whose `initialize` asks for the 2025 version it is made with. */
const AskingFor = askingFor(StreamableHTTPClientTransport);

async function main(version) {
  const url = new URL(process.argv[2]);
  const check = (ok, what) => checkAt(ok, `[${version}] ${what}`);
  const raw = version >= '2026-07-28';
  // Pinning is for 2026-07-28 and later; a 2025 revision is the legacy handshake.
  const client = new Client(
    { name: 'mcp-tool-e2e-v2', version: '0.0.0' },
    { versionNegotiation: { mode: raw ? { pin: version } : 'legacy' } },
  );
  await client.connect(raw ? new StreamableHTTPClientTransport(url) : new AskingFor(url, version));
  check(client.getNegotiatedProtocolVersion() === version, `negotiated ${client.getNegotiatedProtocolVersion()}`);

  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  for (const name of CALLS.structured) {
    const expected = raw && name in CALLS.raw_2026 ? CALLS.raw_2026[name] : 'object';
    const type = byName[name]?.outputSchema?.type;
    check(type === expected || (expected === 'integer' && type === 'number'), `${name} advertises an outputSchema of type ${type}`);
  }
  for (const name of CALLS.unstructured) {
    check(byName[name] && byName[name].outputSchema === undefined, `${name} advertises no outputSchema`);
  }
  for (const tool of tools) {
    const schema = tool.inputSchema;
    check(
      schema.type === 'object' && typeof schema.properties === 'object' && !('additionalProperties' in schema),
      `${tool.name} inputSchema lists its properties and says nothing of others`,
    );
  }

  for (const [name, args] of CALLS.valid) {
    const what = `call ${name} ${JSON.stringify(args)}`;
    let result;
    try {
      result = await client.callTool({ name, arguments: args });
    } catch (e) {
      check(false, `${what}: client threw ${e}`);
      continue;
    }
    check(!result.isError, `${what}: not an error`);
    if (CALLS.structured.includes(name)) {
      if (raw && name in CALLS.raw_2026) {
        check(typeOf(result.structuredContent) === CALLS.raw_2026[name], `${what}: the ${CALLS.raw_2026[name]} as it is`);
      } else {
        check(result.structuredContent !== null && typeof result.structuredContent === 'object', `${what}: structuredContent is an object`);
      }
    } else {
      check(result.structuredContent === undefined, `${what}: no structuredContent`);
    }
  }

  await invalidCallsAreToolErrors(client, check);
  await unknownToolIsInvalidParams(client, check);
  // The 2.x client reads the -32002 of a 2025 server as -32602, the code SEP-2164 settled on
  // (its codec maps it on receipt); the Python and 1.x clients check the code sent at 2025.
  await catalogIsServed(client, check, version, () => -32602);
  await client.close();
}

await runAtVersions(['2026-07-28', '2025-11-25', '2025-06-18'], main);
