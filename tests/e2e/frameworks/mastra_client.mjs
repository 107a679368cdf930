// The invoices example through Mastra's own MCP client (`@mastra/mcp`), no model called.
//
// Over stdio and Streamable HTTP:
// - every tool loaded (`MCPClient.listTools`) and built into the tool an agent hands the model
//   (`makeCoreTool`, the AI SDK shape, with its JSON Schema as `parameters`);
// - every valid call of the shared call table run the way Mastra's agent loop runs a model's tool
//   call: the arguments validated against the tool's schema (`validateToolInput`), the tool
//   executed, and its result turned into what the model's next request carries
//   (`toModelOutput`): the value, not an error.
//
// Usage: node mastra_client.mjs SERVER_BINARY HTTP_URL. Prints `N passed, 0 failed`.

import { validateToolInput } from '@mastra/core/tools';
import { makeCoreTool } from '@mastra/core/utils';
import { MCPClient } from '@mastra/mcp';

import { answers, brief, check, runOverTransports } from './frameworks.mjs';

function server(transport, target) {
  return transport === 'stdio' ? { command: target, args: [] } : { url: new URL(target) };
}

/** What the model is given for a tool's output. */
function modelText(output) {
  const value = output?.value ?? output;
  const text = JSON.stringify(value);
  return /"type":"image"/.test(text) ? 'image' : text;
}

runOverTransports(async (transport, target, calls, label) => {
  const what = `[${label}]`;
  const mcp = new MCPClient({ id: `invoices-${label.replace(" ", "-")}`, servers: { invoices: server(transport, target) } });
  try {
    const listed = await mcp.listTools();
    const tools = Object.fromEntries(Object.entries(listed).map(([id, tool]) => [id.replace(/^invoices_/, ''), tool]));
    check(Object.keys(tools).length > 0, `${what} every tool loaded (${Object.keys(tools).length})`);
    const core = {};
    for (const [name, tool] of Object.entries(tools)) {
      core[name] = makeCoreTool(tool, { name: `invoices_${name}`, runId: 'run' });
      const parameters = core[name].parameters?.jsonSchema ?? core[name].parameters;
      check(parameters?.type === 'object', `${what} ${name} built into the model's tool with its JSON Schema`);
    }
    for (const [name, args, pattern] of calls) {
      const call = `${what} ${name} ${JSON.stringify(args)}`;
      const validated = validateToolInput(tools[name].inputSchema, args, name);
      if (validated.error) {
        check(false, `${call}: Mastra refuses the arguments: ${brief(validated.error.message ?? validated.error)}`);
        continue;
      }
      let output;
      try {
        output = await core[name].execute(validated.data, { toolCallId: 'call_1', messages: [] });
      } catch (e) {
        check(false, `${call}: Mastra threw ${brief(e?.message ?? String(e))}`);
        continue;
      }
      const forModel = core[name].toModelOutput ? await core[name].toModelOutput({ output }) : output;
      const text = modelText(forModel);
      check(answers(pattern, text), `${call}: the value (${brief(text)})`);
    }
  } finally {
    await mcp.disconnect();
  }
});
