// The MCP Apps browser test: the invoices example's view, rendered by a real host in a real
// browser. Node talks to the server with the official TypeScript client 2.x (declaring the
// io.modelcontextprotocol/ui extension); the system's Chromium, headless through puppeteer-core,
// loads host.html (the ext-apps SDK's AppBridge), which renders the view in a sandboxed iframe.
//
// Usage: node apps_browser.mjs http://127.0.0.1:PORT/mcp ARTIFACT_DIR
//
// Checks the tool's _meta.ui and the view resource (MIME type, _meta.ui), calls get_invoice,
// shows the view with its input and result, checks that the view shows the invoice, clicks its
// button, and checks that settle_invoice ran on the server and that its result reached the view.
// Screenshots go to ARTIFACT_DIR. Every request the browser makes stays on loopback: the view's
// one import from jsDelivr is answered from the installed ext-apps package, anything else is
// refused and fails the test. Prints `N passed, M failed`.

import { readFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as esbuild from 'esbuild';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const [url, artifacts] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

const EXTENSION = 'io.modelcontextprotocol/ui';
const VIEW_MIME = 'text/html;profile=mcp-app';
const CDN = 'https://cdn.jsdelivr.net/npm/@modelcontextprotocol/ext-apps@2.0.4/dist/src/app-with-deps.js';
const appWithDeps = readFileSync(
  path.join(path.dirname(require.resolve('@modelcontextprotocol/ext-apps')), 'app-with-deps.js'),
);

async function main() {
  const client = new Client(
    { name: 'mcp-tool-e2e-apps-host', version: '0.0.0' },
    { capabilities: { extensions: { [EXTENSION]: { mimeTypes: [VIEW_MIME] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));

  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const viewUri = byName.get_invoice?._meta?.ui?.resourceUri;
  check(viewUri === 'ui://invoices/view', `get_invoice names its view in _meta.ui (${viewUri})`);
  check(byName.get_invoice?._meta?.['ui/resourceUri'] === viewUri, 'and in the legacy ui/resourceUri');
  check(
    JSON.stringify(byName.settle_invoice?._meta?.ui?.visibility) === '["app"]',
    'settle_invoice is listed to a host, for views only',
  );

  const { resources } = await client.listResources();
  const listed = resources.find((r) => r.uri === viewUri);
  check(listed?.mimeType === VIEW_MIME, `the view is listed as ${listed?.mimeType}`);
  const { contents } = await client.readResource({ uri: viewUri });
  const view = contents[0];
  check(view?.mimeType === VIEW_MIME && view.text.includes('<html'), 'the view reads as MCP App HTML');
  const settings = view?._meta?.ui;
  check(
    settings?.prefersBorder === true && settings?.csp?.resourceDomains?.includes('https://cdn.jsdelivr.net'),
    `the view's _meta.ui is on its contents: ${JSON.stringify(settings)}`,
  );

  const args = { number: 'INV-1' };
  const result = await client.callTool({ name: 'get_invoice', arguments: args });
  check(result.structuredContent?.status === 'open', 'get_invoice INV-1 is open');

  const host = await esbuild.build({
    entryPoints: [path.join(here, 'host.mjs')],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const hostJs = host.outputFiles[0].contents;
  const hostHtml = readFileSync(path.join(here, 'host.html'));
  const server = http.createServer((request, response) => {
    const [body, type] = request.url === '/host.js' ? [hostJs, 'text/javascript'] : [hostHtml, 'text/html'];
    response.writeHead(200, { 'content-type': type });
    response.end(body);
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  const hostUrl = `http://127.0.0.1:${server.address().port}/`;

  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const refused = [];
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 600, height: 460 });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn') console.log(`     browser ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => check(false, `the page threw: ${error}`));
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const target = request.url();
      if (target === CDN) {
        request.respond({
          status: 200,
          contentType: 'text/javascript',
          headers: { 'access-control-allow-origin': '*' },
          body: appWithDeps,
        });
      } else if (target.startsWith(hostUrl) || target.startsWith('about:') || target.startsWith('data:')) {
        request.continue();
      } else {
        refused.push(target);
        request.abort();
      }
    });
    await page.exposeFunction('mcpCallTool', (params) => client.callTool(params));
    await page.goto(hostUrl);
    await page.waitForFunction(() => typeof window.showView === 'function', { timeout: 10_000 });
    await page.evaluate((html, a, r, s) => window.showView(html, a, r, s), view.text, args, result, settings);

    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('#invoice:not([hidden])', { timeout: 15_000 });
    const shown = await frame.evaluate(() => ({
      number: document.getElementById('number').textContent,
      customer: document.getElementById('customer').textContent,
      status: document.getElementById('status').textContent,
      total: document.getElementById('total').textContent,
    }));
    check(
      shown.number === 'INV-1' && shown.customer === 'Acme Corp' && shown.status === 'open' && shown.total === '99.98',
      `the view shows the invoice from the tool result: ${JSON.stringify(shown)}`,
    );
    await page.screenshot({ path: path.join(artifacts, 'invoice-view.png') });

    await frame.click('#pay');
    await frame.waitForFunction(() => document.getElementById('status').textContent === 'paid', { timeout: 15_000 });
    const calledBack = await page.evaluate(() => window.calledBack);
    check(JSON.stringify(calledBack) === '["settle_invoice"]', `the button called settle_invoice back through the host: ${calledBack}`);
    const after = await client.callTool({ name: 'get_invoice', arguments: args });
    check(after.structuredContent?.status === 'paid', 'settle_invoice ran on the server: INV-1 is paid');
    const disabled = await frame.evaluate(() => document.getElementById('pay').disabled);
    check(disabled, "its result reached the view: paid, and the button is off");
    await page.screenshot({ path: path.join(artifacts, 'invoice-view-paid.png') });
  } finally {
    await browser.close();
    server.close();
    await client.close();
  }
  check(refused.length === 0, `every request stayed on loopback (refused: ${JSON.stringify(refused)})`);
}

const timer = setTimeout(() => {
  console.log('FAIL the browser test took over 90 s');
  process.exit(1);
}, 90_000);
try {
  await main();
} catch (e) {
  check(false, `the run failed: ${e?.stack ?? e}`);
}
clearTimeout(timer);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
