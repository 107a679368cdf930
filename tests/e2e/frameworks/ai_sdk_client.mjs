// The invoices example through Vercel's AI SDK (`@ai-sdk/mcp` with `ai`'s `generateText`), no
// model called: the model is the SDK's own mock (`MockLanguageModelV4`, from `ai/test`).
//
// Over stdio and Streamable HTTP:
// - every tool loaded (`client.tools()`, schemas as the server serves them) and handed to
//   `generateText`, which writes them into the model's request: the mock sees every tool, as a
//   function with its JSON Schema;
// - every valid call of the shared call table asked for by the mock as a tool call; the SDK
//   validates the input against the schema, calls the tool, and hands the result to the next
//   model request: it must be the value, not a tool error.
//
// Usage: node ai_sdk_client.mjs SERVER_BINARY HTTP_URL. Prints `N passed, 0 failed`.

import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

import { answers, brief, check, runOverTransports } from './frameworks.mjs';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function transportFor(transport, target) {
  return transport === 'stdio' ? new Experimental_StdioMCPTransport({ command: target, args: [] }) : { type: 'http', url: target };
}

/** The text the model is given for a tool result part. */
function resultText(output) {
  if (output?.type === 'content') return output.value.map((p) => (p.type === 'text' ? p.text : p.type.includes('image') || p.mediaType?.startsWith('image/') ? 'image' : JSON.stringify(p))).join(' ');
  if (output?.type === 'text' || output?.type === 'error-text') return (output.type === 'error-text' ? '"isError":true ' : '') + output.value;
  if (output?.type === 'json' || output?.type === 'error-json') return (output.type === 'error-json' ? '"isError":true ' : '') + JSON.stringify(output.value);
  return JSON.stringify(output);
}

runOverTransports(async (transport, target, calls, label) => {
  const what = `[${label}]`;
  const client = await createMCPClient({ transport: transportFor(transport, target) });
  try {
    const tools = await client.tools();
    const names = Object.keys(tools);
    check(names.length > 0, `${what} every tool loaded (${names.length})`);
    for (const [name, args, pattern] of calls) {
      const call = `${what} ${name} ${JSON.stringify(args)}`;
      let offered = [];
      let handed;
      const model = new MockLanguageModelV4({
        doGenerate: async ({ tools: requestTools, prompt }) => {
          offered = requestTools ?? [];
          const last = prompt[prompt.length - 1];
          if (last.role === 'tool') {
            handed = last.content.find((p) => p.type === 'tool-result')?.output;
            return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
          }
          return {
            content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: name, input: JSON.stringify(args) }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        },
      });
      const result = await generateText({ model, tools, prompt: 'Use the tool.', stopWhen: stepCountIs(2) });
      if (name === calls[0][0] && args === calls[0][1]) {
        check(
          offered.length === names.length && offered.every((t) => t.type === 'function' && t.inputSchema?.type === 'object'),
          `${what} the model's request offers every tool as a function with its JSON Schema (${offered.length})`,
        );
      }
      const errors = result.steps.flatMap((s) => s.content.filter((p) => p.type === 'tool-error'));
      const text = resultText(handed);
      check(errors.length === 0 && answers(pattern, text), `${call}: the value (${brief(errors[0]?.error?.message ?? text)})`);
    }
  } finally {
    await client.close();
  }
});
