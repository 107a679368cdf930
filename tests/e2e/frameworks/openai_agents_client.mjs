// The invoices example through the OpenAI Agents SDK for TypeScript (`@openai/agents`), no model
// called: the agent's model is a scripted one (the SDK's `Model` interface), which asks for one
// tool call and then reads what the runner hands back.
//
// Over stdio and Streamable HTTP, with structured content used and not, and with and without
// `convertSchemasToStrict`:
// - every tool reaches the model's request (`ModelRequest.tools`) with its schema, strict when
//   asked for: the SDK falls back to a non-strict schema with only a warning when its conversion
//   refuses one (it does for a tool without arguments, whose object declares no property);
// - every valid call of the shared call table, made by the runner as the model asked (in strict
//   mode every property sent, `null` where the call leaves it out), hands the tool's value to the
//   model's next request: not the SDK's error text.
//
// Usage: node openai_agents_client.mjs SERVER_BINARY HTTP_URL. Prints `N passed, 0 failed`.

import { Agent, MCPServerStdio, MCPServerStreamableHttp, Usage, run, setTracingDisabled } from '@openai/agents';

import { answers, brief, check, declared, runOverTransports, strictArguments } from './frameworks.mjs';

setTracingDisabled(true);

function serverFor(transport, target, useStructuredContent) {
  return transport === 'stdio'
    ? new MCPServerStdio({ command: target, args: [], useStructuredContent })
    : new MCPServerStreamableHttp({ url: target, useStructuredContent });
}

/** A model that asks for `call` (name, arguments) once, then stops; it keeps what it saw. */
class Scripted {
  constructor(name, args) {
    this.call = { name, args };
    this.seen = { tools: [], handed: undefined };
  }
  async getResponse(request) {
    this.seen.tools = request.tools;
    const result = Array.isArray(request.input) ? request.input.find((item) => item.type === 'function_call_result') : undefined;
    if (result) {
      this.seen.handed = result.output;
      return { usage: new Usage(), responseId: 'r2', output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
    }
    return {
      usage: new Usage(),
      responseId: 'r1',
      output: [{ type: 'function_call', callId: 'call_1', name: this.call.name, arguments: JSON.stringify(this.call.args), status: 'completed' }],
    };
  }
  async *getStreamedResponse() {
    throw new Error('not streamed');
  }
}

/** The text of a function call's output as the model's next request carries it. */
function outputText(output) {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(outputText).join(' ');
  if (output?.type === 'text' || output?.type === 'input_text') return output.text;
  if (output?.type === 'image' || output?.type === 'input_image') return 'image';
  return JSON.stringify(output);
}

runOverTransports(async (transport, target, calls, label) => {
  for (const structured of [false, true]) {
    for (const strict of [false, true]) {
      const what = `[${label} structured=${structured} strict=${strict}]`;
      const server = serverFor(transport, target, structured);
      await server.connect();
      try {
        let first = true;
        for (const [name, rawArgs, pattern] of calls) {
          const listed = (await server.listTools()).find((t) => t.name === name);
          if (strict && !declared(listed.inputSchema, rawArgs)) continue;
          const args = strict ? strictArguments(listed.inputSchema, rawArgs) : rawArgs;
          const model = new Scripted(name, args);
          const agent = new Agent({ name: 'invoices', model, mcpServers: [server], mcpConfig: { convertSchemasToStrict: strict } });
          await run(agent, 'Use the tool.', { maxTurns: 3 });
          if (first) {
            first = false;
            // The SDK does not close an object that declares no property and does not say
            // `additionalProperties: false` (a tool without arguments): strict mode would have
            // nothing to hold its call to.
            const listedTools = await server.listTools();
            const declares = Object.fromEntries(listedTools.map((t) => [t.name, Object.keys(t.inputSchema?.properties ?? {}).length > 0]));
            const tools = model.seen.tools.filter((t) => t.type === 'function');
            check(
              tools.length > 0 && tools.every((t) => t.strict === (strict && declares[t.name])),
              `${what} every tool reaches the model's request, strict=${strict} where it declares arguments (${tools.length})`,
            );
            for (const tool of tools) {
              check(tool.parameters?.type === 'object', `${what} ${tool.name} carries its schema`);
            }
          }
          const text = outputText(model.seen.handed);
          check(answers(pattern, text), `${what} ${name} ${JSON.stringify(args)}: the value (${brief(text)})`);
        }
      } finally {
        await server.close();
      }
    }
  }
});
