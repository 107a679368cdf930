// What the TypeScript agent-framework e2e scripts share (the Python ones' frameworks.py): the
// invoices call table with the pattern each answer must match, the arguments a strict (OpenAI)
// model sends, and the transports a script is given on its command line.
//
// A script is run as `node SCRIPT SERVER_BINARY HTTP_URL`: it drives the binary over stdio and
// the same server over Streamable HTTP.

import { CALLS, checkAt, runAtVersions } from '../ts_checks.mjs';

export { checkAt as check };

/** [tool, arguments, the pattern its answer's text matches (`image` for an image)]. */
export const VALID = CALLS.valid.map(([name, args], i) => [name, args, new RegExp(CALLS.answers[i])]);

/** `[["stdio", SERVER_BINARY], ["http", URL]]`. */
export const TRANSPORTS = [['stdio', process.argv[2]], ['http', process.argv[3]]].filter(([, t]) => t);

/** `run(transport, target)` over each transport, then the closing tally and exit code. */
export function runOverTransports(run) {
  const targets = Object.fromEntries(TRANSPORTS);
  return runAtVersions(Object.keys(targets), (transport) => run(transport, targets[transport]));
}

/** Whether `text`, what the framework handed back, is the tool's value: it matches `pattern`,
 * and is not an error message or the repr of a result object. */
export function answers(pattern, text) {
  if (typeof text !== 'string') text = JSON.stringify(text);
  const wrong = ['isError', '"is_error"', 'Error executing', 'error occurred', '[object Object]'];
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
