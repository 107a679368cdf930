// The invoices example through LangChain.js's own MCP adapter (`@langchain/mcp-adapters`), no
// model called.
//
// Over stdio and Streamable HTTP:
// - every tool loaded as a LangChain tool (`MultiServerMCPClient.getTools`) and converted to
//   OpenAI's tool format (`convertToOpenAITool`), plain and strict;
// - every valid call of the shared call table made the way an agent runs a model's tool call
//   (`invoke` with a `tool_call`; LangChain validates the arguments against the schema first),
//   handing back a `ToolMessage` whose content is the value.
//
// Usage: node langchain_client.mjs SERVER_BINARY HTTP_URL. Prints `N passed, 0 failed`.

import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';

import { answers, brief, check, runOverTransports } from './frameworks.mjs';

function connection(transport, target) {
  return transport === 'stdio' ? { transport: 'stdio', command: target, args: [] } : { transport: 'http', url: target };
}

/** A `ToolMessage`'s content as the model reads it: text, and `image` for an image block. */
function contentText(content) {
  if (typeof content === 'string') return content;
  return content.map((b) => b.text ?? (String(b.type).includes('image') ? 'image' : JSON.stringify(b))).join(' ');
}

runOverTransports(async (transport, target, calls, label) => {
  const what = `[${label}]`;
  const client = new MultiServerMCPClient({ mcpServers: { invoices: connection(transport, target) }, useStandardContentBlocks: true });
  try {
    const tools = Object.fromEntries((await client.getTools()).map((t) => [t.name.replace(/^mcp__invoices__/, ''), t]));
    check(Object.keys(tools).length > 0, `${what} every tool loaded (${Object.keys(tools).length})`);
    for (const [name, tool] of Object.entries(tools)) {
      const plain = convertToOpenAITool(tool);
      const strict = convertToOpenAITool(tool, { strict: true });
      check(plain.function.parameters?.type === 'object' && strict.function.strict === true, `${what} ${name} converted for OpenAI, plain and strict`);
    }
    for (const [name, args, pattern] of calls) {
      const call = `${what} ${name} ${JSON.stringify(args)}`;
      let message;
      try {
        message = await tools[name].invoke({ type: 'tool_call', id: 'call_1', name: tools[name].name, args });
      } catch (e) {
        check(false, `${call}: LangChain threw ${brief(e?.message ?? String(e))}`);
        continue;
      }
      const text = contentText(message.content);
      check(message.status !== 'error' && answers(pattern, text), `${call}: the value (${brief(text)})`);
    }
  } finally {
    await client.close();
  }
});
