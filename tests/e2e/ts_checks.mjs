// What the TypeScript e2e clients (ts_client.mjs with the 1.x SDK, ts2_client.mjs with the 2.x
// client) share: the call tables, the pass/fail tally, the checks that read the same whatever
// the SDK, a transport that asks for a 2025 version in `initialize`, and the run at each version.

import { readFileSync } from 'node:fs';

/** The call tables, shared with python_client.py. */
export const CALLS = JSON.parse(readFileSync(new URL('./invoice_calls.json', import.meta.url), 'utf8'));

let passed = 0;
let failed = 0;

/** One check, one line. */
export function checkAt(ok, what) {
  if (ok) {
    passed += 1;
    console.log(`ok   ${what}`);
  } else {
    failed += 1;
    console.log(`FAIL ${what}`);
  }
}

export const textOf = (result) => (result.content ?? []).map((b) => b.text ?? '').join(' ');

/** `Transport` whose `initialize` asks for the version it was made with. */
export function askingFor(Transport) {
  return class extends Transport {
    constructor(url, version) {
      super(url);
      this.version = version;
    }
    send(message, options) {
      if (message.method === 'initialize') {
        message = { ...message, params: { ...message.params, protocolVersion: this.version } };
      }
      return super.send(message, options);
    }
  };
}

/** Every invalid call of the table is an `isError` result whose text names the problem. */
export async function invalidCallsAreToolErrors(client, check) {
  for (const [name, args, words] of CALLS.invalid) {
    const what = `invalid call ${name} ${JSON.stringify(args)}`;
    let result;
    try {
      result = await client.callTool({ name, arguments: args });
    } catch (e) {
      check(false, `${what}: client threw ${e}`);
      continue;
    }
    const text = textOf(result);
    check(result.isError === true, `${what}: isError`);
    check(words.every((w) => text.includes(w)), `${what}: text names the problem (${text})`);
  }
}

/** An unknown tool is a JSON-RPC error, -32602. */
export async function unknownToolIsInvalidParams(client, check) {
  try {
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    check(false, 'unknown tool: expected a JSON-RPC error');
  } catch (e) {
    check(e.code === -32602, `unknown tool is JSON-RPC error ${e.code}`);
  }
}

/** `main(version)` at each of `versions` (a session that throws is a failed check), then the
 * closing `N passed, M failed` line and the exit code. */
export async function runAtVersions(versions, main) {
  for (const version of versions) {
    try {
      await main(version);
    } catch (e) {
      checkAt(false, `[${version}] session failed: ${e?.stack ?? e}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}
