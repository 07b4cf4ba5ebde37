import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserSession } from '../../src/session/browserSession';
import { discoverBrowsers, resolveEndpoint } from '../../src/session/endpoints';
import { groupAlive } from '../../src/session/launcher';
import { startServer } from '../helpers/servers';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';

describe('session: attach', () => {
  let ext: ExternalBrowser;
  before(async () => {
    ext = await startExternalChromium();
  });
  after(async () => ext?.stop());

  it('attaches by http endpoint, works on the open page, and never closes the browser', async () => {
    const s = await BrowserSession.attach(`http://127.0.0.1:${ext.port}`);
    assert.equal(s.kind, 'attached');
    const tab = await s.activeTab();
    assert.equal(await tab.evaluate('location.href'), 'about:blank');
    await s.close();
    assert.ok(groupAlive(ext.pid), 'the browser we attached to is still running');
  });

  it('attaches by host:port and by bare port', async () => {
    assert.match(await resolveEndpoint(`127.0.0.1:${ext.port}`), /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    assert.match(await resolveEndpoint(String(ext.port)), /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
  });

  it('attaches by ws:// URL', async () => {
    const s = await BrowserSession.attach(ext.wsEndpoint);
    const tab = await s.activeTab();
    assert.equal(await tab.evaluate('2 * 21'), 42);
    await s.close();
    assert.ok(groupAlive(ext.pid));
  });

  it('discovers a browser by its DevToolsActivePort file and attaches to the WebSocket path', async () => {
    const found = await discoverBrowsers([{ label: 'Test Chrome', dir: ext.profileDir }]);
    assert.equal(found.length, 1);
    assert.equal(found[0].label, 'Test Chrome');
    assert.equal(found[0].wsEndpoint, ext.wsEndpoint);
    const s = await BrowserSession.attach(found[0].wsEndpoint);
    assert.ok((await s.activeTab()).attached);
    await s.close();
  });

  it('ignores stale DevToolsActivePort files whose port is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ba-stale-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'DevToolsActivePort'), '1\n/devtools/browser/dead\n');
    assert.deepEqual(await discoverBrowsers([{ label: 'Dead', dir }]), []);
    rmSync(dir, { recursive: true, force: true });
  });

  it('explains what to do when nothing listens, or /json/version is missing (Chrome 144+)', async () => {
    await assert.rejects(BrowserSession.attach('http://127.0.0.1:1'), (e: any) => e.code === 'ATTACH_FAILED' && /chrome:\/\/inspect/.test(e.hint));
    const srv = await startServer({});
    try {
      await assert.rejects(resolveEndpoint(srv.origin), (e: any) => e.code === 'ATTACH_FAILED' && /DevToolsActivePort/.test(e.hint));
    } finally {
      await srv.close();
    }
    await assert.rejects(resolveEndpoint('ftp://x'), (e: any) => e.code === 'INVALID_INPUT');
    await assert.rejects(resolveEndpoint(''), (e: any) => e.code === 'INVALID_INPUT');
  });

  it('sends headers with the WebSocket handshake (remote fleets)', async () => {
    const { WebSocketServer } = await import('ws');
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    const seen = new Promise<string | undefined>((r) => wss.once('connection', (_ws, req) => r(req.headers['x-api-key'] as string)));
    const port = (wss.address() as any).port;
    const attempt = BrowserSession.attach(`ws://127.0.0.1:${port}/devtools/browser/x`, { headers: { 'x-api-key': 'k123' }, cdpTimeoutMs: 500 }).catch((e) => e);
    assert.equal(await seen, 'k123');
    const err = await attempt;
    assert.equal(err.code, 'TIMEOUT', 'a fake endpoint that never answers gives a timeout, not a hang');
    wss.close();
  });
});
