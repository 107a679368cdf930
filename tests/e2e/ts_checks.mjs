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

/** The not-found code a client reports at `version`: what the server sends, `-32602` from
 * 2026-07-28 (SEP-2164), `-32002` before. */
export const notFoundSent = (version) => (version >= '2026-07-28' ? -32602 : -32002);

/** Every prompt and resource of the example listed, got and read, the prompt's argument
 * completed, and the not-found and refused answers (the not-found code the client reports at
 * `version` is `notFound(version)`). */
export async function catalogIsServed(client, check, version, notFound = notFoundSent) {
  const catalog = CALLS.catalog;
  const { prompts } = await client.listPrompts();
  check(JSON.stringify(prompts.map((p) => p.name).sort()) === JSON.stringify(Object.keys(catalog.prompts).sort()), `prompts/list ${prompts.map((p) => p.name)}`);
  for (const prompt of prompts) {
    const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, a.required === true]));
    check(JSON.stringify(args) === JSON.stringify(catalog.prompts[prompt.name]?.arguments), `${prompt.name} lists its arguments ${JSON.stringify(args)}`);
  }
  const { resources } = await client.listResources();
  check(JSON.stringify(resources.map((r) => r.uri).sort()) === JSON.stringify(Object.keys(catalog.resources).sort()), `resources/list ${resources.map((r) => r.uri)}`);
  const { resourceTemplates } = await client.listResourceTemplates();
  for (const [uri, mime] of Object.entries(catalog.templates)) {
    const template = resourceTemplates.find((t) => t.uriTemplate === uri);
    check(template?.mimeType === mime, `resources/templates/list has ${uri} reading ${mime}`);
  }
  const reads = [...Object.entries(catalog.resources).map(([uri, [mime, words]]) => [uri, mime, words]), ...catalog.reads];
  for (const [uri, mime, words] of reads) {
    const { contents } = await client.readResource({ uri });
    check(contents.length === 1 && contents[0].mimeType === mime && contents[0].text.includes(words), `resources/read ${uri}: ${mime} holding ${JSON.stringify(words)}`);
  }
  // MCP Apps: the tool names its view, the view carries its sandbox settings, and the app-only
  // tool is not offered to this client (it declared no UI extension).
  const view = catalog.view;
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === view.tool);
  check(tool?._meta?.ui?.resourceUri === view.uri && tool?._meta?.['ui/resourceUri'] === view.uri, `${view.tool} names its view ${view.uri} in _meta`);
  check(!tools.some((t) => t.name === view.app_only), `the app-only ${view.app_only} is not listed to a client without views`);
  const [content] = (await client.readResource({ uri: view.uri })).contents;
  const ui = content?._meta?.ui;
  check(
    ui?.prefersBorder === view.prefersBorder && JSON.stringify(ui?.csp?.resourceDomains) === JSON.stringify(view.resourceDomains),
    `the view's contents carry its _meta.ui ${JSON.stringify(ui)}`,
  );
  try {
    await client.readResource({ uri: catalog.missing });
    check(false, `reading ${catalog.missing}: expected a JSON-RPC error`);
  } catch (e) {
    const expected = notFound(version);
    check(e.code === expected && e.data?.uri === catalog.missing, `reading ${catalog.missing} is JSON-RPC error ${e.code} (${e.message}; ${JSON.stringify(e.data)})`);
  }
  // The prompt embeds an open invoice: one made here, so that no earlier call decides it.
  const made = await client.callTool({
    name: 'create_invoice',
    arguments: { customer: 'Initech', lines: [{ item: 'Stapler', quantity: 1, unit_cents: 900 }] },
  });
  const number = made.structuredContent?.number;
  const got = await client.getPrompt({ name: 'chase_payment', arguments: { number, tone: 'firm' } });
  const [embedded, asked] = got.messages;
  check(
    embedded?.content?.type === 'resource' && embedded.content.resource.uri === `invoices://${number}` && embedded.content.resource.text.includes('Initech'),
    `prompts/get chase_payment embeds invoice ${number}`,
  );
  check(asked?.content?.text?.includes('firm'), 'chase_payment asks for a firm reminder');
  const [name, args, words] = catalog.paid;
  try {
    await client.getPrompt({ name, arguments: args });
    check(false, `${name} ${JSON.stringify(args)}: expected a JSON-RPC error`);
  } catch (e) {
    check(e.code === -32602 && String(e.message).includes(words), `${name} ${JSON.stringify(args)}: ${e.message}`);
  }
  const [prompt, argument, typed, expected] = catalog.complete;
  const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value: typed } });
  check(expected.every((v) => completion.values.includes(v)), `completion of ${prompt}.${argument} ${JSON.stringify(typed)}: ${completion.values}`);
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
