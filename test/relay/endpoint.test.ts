import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { RelayServer } from '../../src/daemon/relayServer';
import { RELAY_PROTOCOL, RELAY_TOKEN_PREFIX, parsePairingCode, formatPairingCode } from '../../src/session/relayProtocol';

const EXT_ORIGIN = `chrome-extension://${'abcdefghijklmnop'.repeat(2)}`;

/** Opens a real WebSocket to the relay endpoint; resolves with the HTTP status of a refusal, or 101. */
function knock(port: number, origin: string | undefined, protocols: string[]): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, protocols, origin ? { origin } : {});
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ status: 0 }));
  });
}

describe('relay endpoint: pairing token and Origin (real WebSocket on 127.0.0.1)', () => {
  const token = randomBytes(32).toString('hex');
  let relay: RelayServer;
  const log: string[] = [];
  before(async () => {
    relay = new RelayServer({ port: 0, token }, (l) => log.push(l), 500);
    await relay.listen();
  });
  after(() => relay.close());

  it('accepts the extension origin with the token, and only then', async () => {
    const ok = await knock(relay.port, EXT_ORIGIN, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`]);
    assert.equal(ok.status, 101);
    assert.equal(ok.ws!.protocol, RELAY_PROTOCOL);
    ok.ws!.send(JSON.stringify({ t: 'hello', v: 1, version: 'test', tabs: [] }));
    await relay.waitConnected(2000);
    ok.ws!.close();
  });

  it('refuses a web Origin, no Origin, a wrong token and a missing token', async () => {
    assert.equal((await knock(relay.port, 'https://evil.example', [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`])).status, 403);
    assert.equal((await knock(relay.port, 'http://127.0.0.1:8080', [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`])).status, 403);
    assert.equal((await knock(relay.port, undefined, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`])).status, 403);
    assert.equal((await knock(relay.port, 'chrome-extension://not-an-id', [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`])).status, 403);
    assert.equal((await knock(relay.port, EXT_ORIGIN, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${'0'.repeat(64)}`])).status, 401);
    assert.equal((await knock(relay.port, EXT_ORIGIN, [RELAY_PROTOCOL])).status, 401);
    assert.ok(log.some((l) => /refused a connection from origin "https:\/\/evil.example"/.test(l)));
    assert.ok(!log.some((l) => l.includes(token)), 'the token never lands in the log');
  });

  it('listens on 127.0.0.1 only', async () => {
    const addr = (relay as unknown as { wss: { address(): { address: string } } }).wss.address();
    assert.equal(addr.address, '127.0.0.1');
  });

  it('pairing codes round-trip and bad ones are rejected', () => {
    assert.deepEqual(parsePairingCode(formatPairingCode(47321, token)), { port: 47321, token });
    assert.equal(parsePairingCode('47321-xyz'), undefined);
    assert.equal(parsePairingCode(`99999-${token}`), undefined);
  });
});
