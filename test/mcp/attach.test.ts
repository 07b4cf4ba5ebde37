// Attaching with --cdp-url to a browser whose page another CDP client is attached to (DevTools, a
// test harness, another tool): the MCP server works in that page, not in a tab of its own.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CdpConnection } from '../../src/session/cdp';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

const MCP_BIN = join(__dirname, '..', '..', '..', 'dist', 'mcp.js');

describe('mcp: --cdp-url works in the page the user has open, even with another client attached', function () {
  this.timeout(120_000);
  let ext: ExternalBrowser;
  let srv: TestServer;
  let other: CdpConnection;
  let client: Client | undefined;
  let pageId: string;
  let otherSession: string;

  before(async () => {
    srv = await startServer({ '/mine': `<!doctype html><title>My page</title><h1>Hello from my page</h1><button onclick="document.title='clicked'">Press me</button>` });
    ext = await startExternalChromium();
    other = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
    const { targetInfos } = await other.send('Target.getTargets');
    pageId = targetInfos.find((t) => t.type === 'page')!.targetId;
    // The other client stays attached to the user's page for the whole test.
    otherSession = (await other.send('Target.attachToTarget', { targetId: pageId, flatten: true })).sessionId;
    const s = other.session(otherSession);
    await s.send('Page.enable');
    const loaded = new Promise<void>((r) => s.on('Page.loadEventFired', () => r()));
    await s.send('Page.navigate', { url: srv.origin + '/mine' });
    await loaded;
  });
  after(async () => {
    await client?.close();
    other?.close();
    await ext?.stop();
    await srv?.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r: any = await client!.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    return { text: r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n') as string, isError: !!r.isError };
  };

  it('snapshots and clicks in that same page', async () => {
    const { targetInfos } = await other.send('Target.getTargets');
    assert.equal(targetInfos.find((t) => t.targetId === pageId)?.attached, true, 'another client is attached');
    client = new Client({ name: 'attach-test', version: '1.0.0' });
    const audit = mkdtempSync(join(tmpdir(), 'ba-attach-audit-'));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--cdp-url', `http://127.0.0.1:${ext.port}`, '--audit-dir', audit, '--no-daemon', '--allow-confirm-actions'], stderr: 'ignore' }));
    const snap = await call('browser_snapshot');
    assert.ok(!snap.isError, snap.text);
    assert.match(snap.text, /Hello from my page/);
    const ref = /^\[(\d+)\] button "Press me"/m.exec(snap.text)?.[1];
    assert.ok(ref, snap.text);
    assert.ok(!(await call('browser_click', { ref })).isError);
    // The click happened in the user's page, seen through the other client.
    const title = await other.session(otherSession).send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
    assert.equal(title.result.value, 'clicked');
    const pages = (await other.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');
    assert.equal(pages.length, 1, 'no tab of its own was opened');
  });

  it('--attach-tab new opens a tab of its own instead', async () => {
    await client?.close();
    client = new Client({ name: 'attach-test-new', version: '1.0.0' });
    const audit = mkdtempSync(join(tmpdir(), 'ba-attach-audit-'));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--cdp-url', `http://127.0.0.1:${ext.port}`, '--attach-tab', 'new', '--audit-dir', audit, '--no-daemon'], stderr: 'ignore' }));
    const snap = await call('browser_snapshot');
    assert.doesNotMatch(snap.text, /Hello from my page/);
    const pages = (await other.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');
    assert.equal(pages.length, 2);
  });
});
