// The minimal MCP Apps host the browser test loads: the ext-apps SDK's host side (`AppBridge`)
// renders a view in a sandboxed iframe, as a host does, hands it the tool's input and result,
// and proxies the view's tool calls to `window.mcpCallTool`, which the test exposes from Node
// (where the official TypeScript client talks to the server). Bundled by apps_browser.mjs with
// esbuild.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

window.calledBack = [];

window.showView = async (html, args, result, settings) => {
  const iframe = document.createElement('iframe');
  // Scripts only: no same origin, no forms, no popups; the view's border as it asks.
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = `width: 520px; height: 380px; border: ${settings?.prefersBorder ? '1px solid #bbb' : '0'}; border-radius: 8px;`;
  document.getElementById('views').append(iframe);
  const bridge = new AppBridge(
    null,
    { name: 'mcp-tool-e2e-host', version: '0.0.0' },
    { serverTools: {}, sandbox: { csp: settings?.csp ?? {} } },
  );
  bridge.oncalltool = async (params) => {
    window.calledBack.push(params.name);
    return window.mcpCallTool(params);
  };
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
};
