// What the TypeScript agent-framework e2e scripts share (the Python ones' frameworks.py): the
// invoices call table with the pattern each answer must match, the arguments a strict (OpenAI)
// model sends, and the transports a script is given on its command line.
//
// A script is run as `node SCRIPT SERVER_BINARY HTTP_URL`: it drives the binary (the invoices
// example) over stdio and the same server over Streamable HTTP, then the other examples beside it
// over stdio, with their calls (`../example_calls.json`).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { CALLS, checkAt, runAtVersions } from '../ts_checks.mjs';

export { checkAt as check };

/** [tool, arguments, the pattern its answer's text matches (`image` for an image)]. */
export const VALID = CALLS.valid.map(([name, args], i) => [name, args, new RegExp(CALLS.answers[i])]);

/** `[["stdio", SERVER_BINARY], ["http", URL]]`. */
export const TRANSPORTS = [['stdio', process.argv[2]], ['http', process.argv[3]]].filter(([, t]) => t);

/** The other examples (built beside SERVER_BINARY), each with its calls, over stdio. */
const OTHERS = Object.entries(
  JSON.parse(readFileSync(new URL('../example_calls.json', import.meta.url), 'utf8')).examples,
).map(([example, calls]) => [example, join(dirname(process.argv[2]), example), calls.map(([n, a, p]) => [n, a, new RegExp(p)])]);

/** `run(transport, target, calls, label)` over each transport with the invoices calls, then over
 * stdio for each other example with its calls (labelled `stdio EXAMPLE`); then the closing tally
 * and exit code. */
export function runOverTransports(run) {
  const runs = new Map(TRANSPORTS.map(([transport, target]) => [transport, [transport, target, VALID]]));
  for (const [example, binary, calls] of OTHERS) runs.set(`stdio ${example}`, ['stdio', binary, calls]);
  return runAtVersions([...runs.keys()], (label) => {
    const [transport, target, calls] = runs.get(label);
    return run(transport, target, calls, label);
  });
}

/** Whether `text`, what the framework handed back, is the tool's value: it matches `pattern`,
 * and is not an error message or the repr of a result object. */
export function answers(pattern, text) {
  if (typeof text !== 'string') text = JSON.stringify(text);
  const wrong = ['"isError":true', '"isError": true', 'Error executing', 'error occurred', '[object Object]'];
  return pattern.test(text) && !wrong.some((w) => text.includes(w));
}

/** The arguments as a model in OpenAI's strict mode sends them: every property of every object
 * present, `null` for the ones the call leaves out. */
export function strictArguments(schema, args) {
  if (Array.isArray(args)) return args.map((item) => strictArguments(schema?.items ?? {}, item));
  if (args && typeof args === 'object') {
    const properties = schema?.properties ?? {};
    const filled = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, strictArguments(properties[k] ?? {}, v)]));
    for (const key of Object.keys(properties)) if (!(key in filled)) filled[key] = null;
    return filled;
  }
  return args;
}

/** Whether every argument is a declared property (a strict model sends no other). */
export const declared = (schema, args) => Object.keys(args).every((k) => k in (schema?.properties ?? {}));

/** `what` on one line, cut short. */
export const brief = (what) => (typeof what === 'string' ? what : JSON.stringify(what) ?? String(what)).replace(/\n/g, ' ').slice(0, 160);
