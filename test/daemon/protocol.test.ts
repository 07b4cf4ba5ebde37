import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonTransport, daemonControl } from '../../src/daemon/client';
import { daemonPaths } from '../../src/daemon/paths';
import { MAX_CLIENT_LINE } from '../../src/daemon/server';
import { CdpConnection } from '../../src/session/cdp';
import { TEST_LAUNCH } from '../helpers/chromium';
import { DAEMON_BIN, until } from '../helpers/daemon';

/** Raw CDP over the proxy transport, against the real daemon and Chromium. */
describe('daemon: proxy protocol (request ids, resume, tab isolation)', function () {
  this.timeout(120_000);
  const paths = daemonPaths({ BROWSER_AGENT_DAEMON_DIR: mkdtempSync(join(tmpdir(), 'bad-')) });
  const open = async (client: string) => {
    const t = await DaemonTransport.open({ paths, script: DAEMON_BIN, client, browser: { mode: 'launch', launch: TEST_LAUNCH } });
    return { t, conn: new CdpConnection(t, t.info.endpoint, { timeoutMs: 15_000 }) };
  };
  const pageOf = async (conn: CdpConnection) => {
    const { targetInfos } = await conn.send('Target.getTargets');
    const targetId = targetInfos.find((x) => x.type === 'page')?.targetId ?? (await conn.send('Target.createTarget', { url: 'about:blank' })).targetId;
    return { targetId, sessionId: (await conn.send('Target.attachToTarget', { targetId, flatten: true })).sessionId };
  };
  after(async () => {
    await daemonControl('shutdown', {}, { paths }).catch(() => {});
  });

  it('a request re-sent with the same id is answered once and runs once; a dropped socket resumes the session', async () => {
    const { t, conn } = await open('raw');
    const { sessionId } = await pageOf(conn);
    const eval1 = (id: number) => JSON.stringify({ id, method: 'Runtime.evaluate', sessionId, params: { expression: 'window.n = (window.n || 0) + 1', returnByValue: true } });
    const answers: string[] = [];
    const prev = t.onmessage!;
    t.onmessage = (line) => (line.startsWith('{"id":9001') ? void answers.push(line) : prev(line));
    t.send(eval1(9001));
    t.send(eval1(9001)); // a retry while the first is running (or just done)
    await until(() => answers.length >= 1, 15_000, 'the first answer');
    t.send(eval1(9001)); // a retry after the answer: answered from what was answered
    await until(() => answers.length >= 2, 15_000, 'the repeated answer');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(answers.length, 2, 'the early retry gets nothing extra, the late one the same answer again');
    assert.equal(JSON.parse(answers[0]).result.result.value, 1);
    assert.equal(answers[0], answers[1]);
    t.onmessage = prev;
    assert.equal((await conn.send('Runtime.evaluate', { expression: 'window.n', returnByValue: true }, sessionId)).result.value, 1, 'ran once');

    // Drop the socket mid-call: the transport resumes the session and the call completes, once.
    const slow = conn.send('Runtime.evaluate', { expression: 'new Promise(r => setTimeout(() => r(window.n = window.n + 1), 700))', awaitPromise: true, returnByValue: true }, sessionId);
    await new Promise((r) => setTimeout(r, 100));
    (t as unknown as { socket: { destroy(): void } }).socket.destroy();
    assert.equal((await slow).result.value, 2);
    assert.equal((await conn.send('Runtime.evaluate', { expression: 'window.n', returnByValue: true }, sessionId)).result.value, 2);
    const st = await daemonControl('status', {}, { paths });
    assert.equal(st.sessions.filter((s) => s.client === 'raw').length, 1, 'still one session');
    await t.end();
  });

  it('a request larger than the daemon accepts is answered with an error; the session goes on', async () => {
    const { t, conn } = await open('big');
    const { sessionId } = await pageOf(conn);
    const huge = `'${'x'.repeat(MAX_CLIENT_LINE)}'.length`;
    await assert.rejects(conn.send('Runtime.evaluate', { expression: huge, returnByValue: true }, sessionId), /more than \d+ characters was refused by the session daemon/);
    assert.equal((await conn.send('Runtime.evaluate', { expression: '6*7', returnByValue: true }, sessionId)).result.value, 42);
    const st = await daemonControl('status', {}, { paths });
    assert.equal(st.sessions.filter((s) => s.client === 'big').length, 1, 'still the same session');
    await t.end();
  });

  it('a client cannot list, attach to, read or close another client’s tab', async () => {
    const a = await open('a');
    const b = await open('b');
    const pa = await pageOf(a.conn);
    const pb = await pageOf(b.conn);
    assert.notEqual(pa.targetId, pb.targetId);
    const listB = (await b.conn.send('Target.getTargets')).targetInfos.map((x) => x.targetId);
    assert.ok(!listB.includes(pa.targetId));
    await assert.rejects(b.conn.send('Target.attachToTarget', { targetId: pa.targetId, flatten: true }), /No target with given id/);
    await assert.rejects(b.conn.send('Target.closeTarget', { targetId: pa.targetId }), /No target with given id/);
    await assert.rejects(b.conn.send('Runtime.evaluate', { expression: '1' }, pa.sessionId), /Session with given id not found/);
    await assert.rejects(b.conn.send('Browser.close'), /not available through the session daemon/);
    assert.equal((await a.conn.send('Runtime.evaluate', { expression: '6*7', returnByValue: true }, pa.sessionId)).result.value, 42, 'a is untouched');
    // Ending b closes b's tab only.
    await b.t.end();
    const left = (await a.conn.send('Target.getTargets')).targetInfos.map((x) => x.targetId);
    assert.ok(left.includes(pa.targetId));
    await a.t.end();
  });
});
