// npm run bench:relay — what the Chrome-extension relay adds per CDP call: the median round trip of
// Runtime.evaluate("1") on one shared tab, direct (a WebSocket to the browser) vs through the relay
// (client → session daemon → extension service worker → chrome.debugger and back), calls interleaved
// so load on the machine hits both alike; and the same for a whole browser_click through the real
// MCP server (--extension vs --cdp-url --no-daemon), since one click makes a few dozen CDP calls.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CdpConnection, type CdpSession } from '../src/session/cdp';
import { daemonProvider } from '../src/daemon/provider';
import { RELAY_ENDPOINT } from '../src/session/relayProtocol';
import { chromeWithExtension, freePort } from '../test/helpers/relay';

const root = join(__dirname, '..', '..');
const N = Number(process.env.BENCH_N ?? 300);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 20);
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Bench</title><button style="position:absolute;left:20px;top:20px;width:120px;height:40px" onclick="this.textContent = String(++window.n || (window.n = 1))">Go</button>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const daemonDir = mkdtempSync(join(tmpdir(), 'ba-bench-relay-'));
  process.env.BROWSER_AGENT_DAEMON_DIR = daemonDir;
  process.env.BROWSER_AGENT_DAEMON_SCRIPT = join(root, 'dist', 'daemon.js');
  process.env.BROWSER_AGENT_RELAY_PORT = String(await freePort());
  const env = { ...(process.env as Record<string, string>) };
  const { code } = JSON.parse(execFileSync(process.execPath, [join(root, 'dist', 'daemon.js'), 'pair', '--json'], { env }).toString());
  const chrome = await chromeWithExtension();
  const clients: Client[] = [];
  try {
    await chrome.worker(`browserAgentRelay.pair(${JSON.stringify(code)})`);
    for (let i = 0; i < 150 && (await chrome.worker<{ state: string }>('browserAgentRelay.state()')).state !== 'connected'; i++) await new Promise((r) => setTimeout(r, 100));
    const tab = await chrome.open(`${origin}/`);
    await chrome.worker(`browserAgentRelay.share(${tab.tabId})`);

    // Bare CDP round trip.
    const direct = await CdpConnection.connect(chrome.browser.wsEndpoint);
    const d: CdpSession = direct.session((await direct.send('Target.attachToTarget', { targetId: tab.targetId, flatten: true })).sessionId);
    const handle = await daemonProvider({ client: 'bench' }).attach(RELAY_ENDPOINT, {});
    const r: CdpSession = handle.connection.session((await handle.connection.send('Target.attachToTarget', { targetId: tab.targetId, flatten: true })).sessionId);
    const times = { direct: [] as number[], relay: [] as number[] };
    for (let i = 0; i < 20; i++) await Promise.all([d.send('Runtime.evaluate', { expression: '1' }), r.send('Runtime.evaluate', { expression: '1' })]);
    for (let i = 0; i < N; i++) {
      for (const [name, s] of [['direct', d], ['relay', r]] as const) {
        const t = performance.now();
        await s.send('Runtime.evaluate', { expression: '1' });
        times[name].push(performance.now() - t);
      }
    }
    await handle.close();
    direct.close();

    // A whole click through the real MCP server.
    const mcp = async (args: string[]) => {
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(new StdioClientTransport({ command: process.execPath, args: [join(root, 'dist', 'mcp.js'), '--audit-dir', 'off', ...args], env, stderr: 'ignore' }));
      clients.push(c);
      return c;
    };
    const viaRelay = await mcp(['--extension']);
    const port = new URL(chrome.browser.wsEndpoint).port;
    const local = await mcp(['--no-daemon', '--cdp-url', `http://127.0.0.1:${port}`]);
    const text = (x: any) => x.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
    const refOf = async (c: Client) => /\[([^\]]+)\] button/.exec(text(await c.callTool({ name: 'browser_snapshot', arguments: {} })))![1];
    // Both work in the same shared tab: the in-process server attaches to the page that is open.
    await local.callTool({ name: 'browser_tabs', arguments: { action: 'select', id: tab.targetId } });
    const refs = new Map([[viaRelay, await refOf(viaRelay)], [local, await refOf(local)]]);
    const clicks = { direct: [] as number[], relay: [] as number[] };
    for (let i = 0; i < CLICKS; i++) {
      for (const [name, c] of [['direct', local], ['relay', viaRelay]] as const) {
        const t = performance.now();
        const res: any = await c.callTool({ name: 'browser_click', arguments: { ref: refs.get(c) } }, undefined, { timeout: 60_000 });
        if (res.isError) throw new Error(text(res));
        clicks[name].push(performance.now() - t);
      }
    }
    const row = (what: string, a: number[], b: number[]) => `| ${what} | ${ms(median(a))} | ${ms(median(b))} | +${ms(median(b) - median(a))} | ${(median(b) / median(a)).toFixed(2)} |`;
    console.log(`Relay overhead (${N} CDP calls, ${CLICKS} clicks each way, interleaved)\n`);
    console.log('| median round trip | direct | through the relay | extra | ratio |\n|---|---|---|---|---|');
    console.log(row('CDP call (Runtime.evaluate "1")', times.direct, times.relay));
    console.log(row('browser_click (MCP, whole tool call)', clicks.direct, clicks.relay));
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    try {
      execFileSync(process.execPath, [join(root, 'dist', 'daemon.js'), 'stop'], { env });
    } catch {
      /* already gone */
    }
    await chrome.stop();
    server.close();
    rmSync(daemonDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
