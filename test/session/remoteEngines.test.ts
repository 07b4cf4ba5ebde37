// Remote-browser engines, the parts a real engine cannot show on demand: what counts as an engine's endpoint,
// the token never shown, and each refusal of the WebSocket upgrade (401, 429, a queue that times out, nothing
// listening) as an error that names the endpoint and says what to do. The real engine is in test/fleet/.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseCli } from '../../src/mcp/cli';
import { resolveEndpoint } from '../../src/session/endpoints';
import { isBrowserPool, redactEndpoint } from '../../src/session/remoteEngines';
import { connectWebSocket } from '../../src/session/transport';

/** An HTTP server whose WebSocket upgrades get `status` (or, with 0, no answer at all). */
async function refusing(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.end());
  server.on('upgrade', (_req, socket) => {
    if (status) socket.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    // An upgraded socket is no longer the server's: close() would wait for it.
    else upgraded.add(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}?token=s3cret`, server };
}

const upgraded = new Set<Duplex>();
const close = (s: Server) =>
  new Promise<void>((r) => {
    s.close(() => r());
    s.closeAllConnections();
    for (const socket of upgraded) socket.destroy();
    upgraded.clear();
  });

describe('remote-browser engines: endpoints, tokens and refusals', () => {
  it('tells an engine’s endpoint from a Chrome’s', () => {
    for (const e of ['ws://127.0.0.1:3000?token=x', 'wss://production-sfo.browserless.io/chromium?token=x', 'wss://connect.browserbase.com?apiKey=k', 'wss://connect.steel.dev?apiKey=k&sessionId=s', 'ws://fleet.internal/'])
      assert.equal(isBrowserPool(e), true, e);
    for (const e of ['ws://127.0.0.1:9222/devtools/browser/abc', 'wss://host/devtools/page/1', 'http://127.0.0.1:9222', '9222', 'relay://x', 'not a url'])
      assert.equal(isBrowserPool(e), false, e);
  });

  it('shows endpoints with credentials replaced by ***, and leaves the rest as is', () => {
    assert.equal(redactEndpoint('ws://127.0.0.1:3000?token=abc'), 'ws://127.0.0.1:3000/?token=***');
    assert.equal(redactEndpoint('wss://connect.steel.dev?apiKey=k1&sessionId=s1&stealth=true'), 'wss://connect.steel.dev/?apiKey=***&sessionId=***&stealth=true');
    assert.equal(redactEndpoint('wss://user:pw@fleet.example/chromium?signingKey=z'), 'wss://user:***@fleet.example/chromium?signingKey=***');
    assert.equal(redactEndpoint('ws://127.0.0.1:9222/devtools/browser/abc'), 'ws://127.0.0.1:9222/devtools/browser/abc');
    assert.equal(redactEndpoint('ws://bad host?token=abc'), 'ws://bad host?token=***');
  });

  const cases: [number, RegExp, RegExp][] = [
    [401, /refused the connection: HTTP 401 \(a wrong or missing token or API key\)/, /Check the token or API key/],
    [403, /HTTP 403/, /Check the token or API key/],
    [429, /has no free browser: HTTP 429/, /CONCURRENT and QUEUED.*--remote-browser shared/],
    [408, /gave no browser in time: HTTP 408 \(the connection waited in the engine's queue/, /Wait for a session to end/],
    [404, /Could not connect to .*: HTTP 404/, /CDP WebSocket address of the engine/],
  ];
  for (const [status, message, hint] of cases) {
    it(`an upgrade answered HTTP ${status} is ATTACH_FAILED naming the endpoint without its token, with the fix`, async () => {
      const { url, server } = await refusing(status);
      try {
        const e: any = await connectWebSocket(url).then(() => assert.fail('connected'), (err) => err);
        assert.equal(e.code, 'ATTACH_FAILED');
        assert.match(e.message, message);
        assert.match(e.message, /\?token=\*\*\*/);
        assert.match(e.hint, hint);
        assert.doesNotMatch(`${e.message} ${e.hint}`, /s3cret|chrome:\/\/inspect/);
      } finally {
        await close(server);
      }
    });
  }

  it('a handshake an engine keeps waiting (its queue) times out as "no browser in time", and a closed port as "no engine answers"', async () => {
    const { url, server } = await refusing(0);
    try {
      const e: any = await connectWebSocket(url, { connectTimeoutMs: 300 }).catch((err) => err);
      assert.match(e.message, /gave no browser in time .*most likely in its queue/);
      assert.match(e.hint, /Wait for a session to end/);
    } finally {
      await close(server);
    }
    const gone: any = await connectWebSocket(url).catch((err) => err);
    assert.match(gone.message, /No remote-browser engine answers at ws:\/\/127\.0\.0\.1:\d+\/\?token=\*\*\*/);
    assert.match(gone.hint, /Is the engine running/);
  });

  it('resolves an engine’s http(s) address with its token kept, on /json/version and in the WebSocket URL', async () => {
    const server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.searchParams.get('token') !== 't0k') return void res.writeHead(401).end('Bad or missing authentication.');
      res.setHeader('content-type', 'application/json');
      // browserless reports its bare address; a Chrome its /devtools/browser/ path.
      res.end(JSON.stringify({ webSocketDebuggerUrl: url.searchParams.get('chrome') ? 'ws://0.0.0.0:1/devtools/browser/id' : 'ws://0.0.0.0:1' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      assert.equal(await resolveEndpoint(`${origin}?token=t0k`), `ws://127.0.0.1:${new URL(origin).port}/?token=t0k`);
      assert.equal(await resolveEndpoint(`${origin}?token=t0k&chrome=1`), `ws://127.0.0.1:${new URL(origin).port}/devtools/browser/id`);
      const e: any = await resolveEndpoint(`${origin}?token=wr0ng-t0ken`).catch((err) => err);
      assert.match(e.message, /\/json\/version\?token=\*\*\* refused the connection: HTTP 401/);
      assert.doesNotMatch(e.message, /wr0ng-t0ken/);
    } finally {
      await close(server);
    }
  });

  it('the MCP server’s --remote-browser and --cdp-header: accepted, or refused with the reason', () => {
    const ok = parseCli(['--cdp-url', 'ws://h:3000?token=x', '--remote-browser', 'shared', '--cdp-header', 'X-Api-Key: k1', '--cdp-header', 'Authorization:Bearer t']);
    assert.equal(ok.remoteBrowser, 'shared');
    assert.deepEqual(ok.headers, { 'X-Api-Key': 'k1', Authorization: 'Bearer t' });
    assert.throws(() => parseCli(['--cdp-url', 'ws://h', '--remote-browser', 'each']), /must be "per-session" or "shared"/);
    assert.throws(() => parseCli(['--remote-browser', 'shared']), /give one/);
    assert.throws(() => parseCli(['--cdp-url', 'ws://h', '--remote-browser', 'shared', '--no-daemon']), /needs the session daemon/);
    assert.throws(() => parseCli(['--cdp-url', 'ws://h', '--cdp-header', 'secret-without-name']), (e: Error) => /"Name: value"/.test(e.message) && !e.message.includes('secret-without-name'));
  });
});
