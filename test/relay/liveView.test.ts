// The chat panel's live view and keepDrawing on one tab (issue 33). keepDrawing (src/session/keepDrawing.ts) keeps
// an agent's background tab drawing at full rate with a tiny screencast (8×8, one frame in a million) on a CDP
// session of its own; the live view (src/vscode/chat/screencast.ts) runs a screencast of its own on the tab's
// session and stops it when it stops. Over a real browser those are two CDP sessions, two screencasts. Through
// the Chrome extension relay a tab has ONE chrome.debugger attachment that every session on it shares, so the
// relay has to keep the two apart. Real parts: a headed Chromium under Xvfb with the built extension paired to
// the real daemon, sessions opened in this process through the daemon's provider (the relay, its proxy
// transport, and in-process for comparison), the real Screencast and keepDrawing.
import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { keepDrawing } from '../../src/session/keepDrawing';
import { RELAY_ENDPOINT } from '../../src/session/relayProtocol';
import { daemonPaths } from '../../src/daemon/paths';
import { daemonProvider } from '../../src/daemon/provider';
import { Screencast, type FrameMessage } from '../../src/vscode/chat/screencast';
import { DAEMON_BIN, daemonEnv, runDaemonCli } from '../helpers/daemon';
import { freePort, pairedChrome, type ChromeWithExtension } from '../helpers/relay';
import { PERSON_PAGE, personFocused, skipWithoutXvfb, startXvfb } from '../helpers/headed';
import { inCI } from '../helpers/corpus';
import { startServer, type TestServer } from '../helpers/servers';

/** A page that changes every animation frame, so a screencast has frames to send while its tab draws. */
const AGENT_PAGE = `<!doctype html><title>agent</title>
<button id=b style="position:absolute;left:20px;top:20px;width:200px;height:60px">Press</button>
<p id=n style="position:absolute;top:120px;font:40px sans-serif">0</p>
<script>let n = 0; const f = () => { document.getElementById('n').textContent = String(++n); requestAnimationFrame(f); }; requestAnimationFrame(f);</script>`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Width and height of a baseline or progressive JPEG (its start-of-frame segment). */
function jpegSize(base64: string): { width: number; height: number } {
  const b = Buffer.from(base64, 'base64');
  for (let i = 2; i + 9 < b.length;) {
    if (b[i] !== 0xff) return { width: 0, height: 0 };
    const marker = b[i + 1];
    if (marker >= 0xc0 && marker <= 0xc3) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + b.readUInt16BE(i + 2);
  }
  return { width: 0, height: 0 };
}

/** Animation frames the tab's page draws in half a second (about 30 at full rate; 1 or 2 when Chromium throttles it). */
async function drawRate(tab: Tab): Promise<number> {
  return tab.evaluate<number>('new Promise((r) => { let n = 0; const end = performance.now() + 500; const f = () => (performance.now() < end ? (n++, requestAnimationFrame(f)) : r(n)); requestAnimationFrame(f); })', 10_000);
}

/** The median of five clicks' round trips (press and release); a click waits for the tab's next frame. */
async function clickMs(tab: Tab): Promise<number> {
  const session = await tab.session();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    for (const type of ['mousePressed', 'mouseReleased'] as const) await session.send('Input.dispatchMouseEvent', { type, x: 100, y: 50, button: 'left', clickCount: 1 });
    times.push(Date.now() - t0);
  }
  return times.sort((a, b) => a - b)[2];
}

/** What the live view hands on in `ms`: frame count and the size of the largest picture. */
async function liveFrames(frames: FrameMessage[], ms: number): Promise<{ count: number; width: number; height: number }> {
  const from = frames.length;
  await sleep(ms);
  const got = frames.slice(from);
  const sizes = got.map((f) => jpegSize(f.data));
  return { count: got.length, width: Math.max(0, ...sizes.map((s) => s.width)), height: Math.max(0, ...sizes.map((s) => s.height)) };
}

describe('live view and keepDrawing on one tab (headed Chromium under Xvfb, the extension relay, the daemon)', function () {
  this.timeout(240_000);
  let xvfb: { display: string; stop(): Promise<void> } | undefined;
  let chrome: ChromeWithExtension | undefined;
  let srv: TestServer;
  let env: Record<string, string>;
  const opened: BrowserSession[] = [];

  before(async function () {
    skipWithoutXvfb(this, inCI());
    srv = await startServer({ '/person': PERSON_PAGE, '/agent': AGENT_PAGE });
    xvfb = await startXvfb();
    env = { ...daemonEnv(5000), BROWSER_AGENT_RELAY_PORT: String(await freePort()) };
    ({ chrome } = await pairedChrome(env, { display: xvfb.display }));
    // The person's tab in front: the agents' tabs open behind it, where Chromium would throttle them.
    const person = await chrome.open(srv.origin + '/person');
    await personFocused(chrome.conn, person.targetId);
  });
  after(async () => {
    for (const s of opened) await s.close().catch(() => undefined);
    if (env) await runDaemonCli(env, 'stop');
    await chrome?.stop();
    await xvfb?.stop();
    await srv?.close();
  });

  const MODES = ['relay', 'daemon, proxy', 'in-process'] as const;
  async function agentTab(mode: (typeof MODES)[number]): Promise<{ session: BrowserSession; tab: Tab }> {
    const ws = chrome!.browser.wsEndpoint;
    const provider = daemonProvider({ client: `test (${mode})`, paths: daemonPaths(env), script: DAEMON_BIN, transport: 'proxy' });
    const session =
      mode === 'in-process'
        ? await BrowserSession.attach(ws, { attachTab: 'new' })
        : await BrowserSession.open(await provider.attach(mode === 'relay' ? RELAY_ENDPOINT : ws, { attachTab: 'new' }), 'new');
    opened.push(session);
    const tab = await session.activeTab();
    await (await tab.session()).send('Page.navigate', { url: srv.origin + '/agent' });
    for (let i = 0; i < 100 && !/agent/.test(String(await tab.evaluate('document.title', 5000).catch(() => ''))); i++) await sleep(50);
    // A first click: from then on Chromium draws a background tab once a second unless something keeps it drawing.
    await clickMs(tab);
    return { session, tab };
  }

  // What a live view needs: many frames in 2 s (about 120 unhindered) at its own size (960×720 at most), not
  // keepDrawing's 8×8 at one frame in a million (0 frames). A tab kept drawing: about 30 animation frames in
  // 500 ms; a throttled background tab draws 1 or 2.
  const assertLive = (live: { count: number; width: number }, what: string) => {
    assert.ok(live.count >= 10, `${what}: the live view got ${live.count} frames in 2 s`);
    assert.ok(live.width >= 400, `${what}: the live view's frames are ${live.width} pixels wide`);
  };

  for (const mode of MODES) {
    it(`${mode}: keepDrawing first, then the live view starts (its own frames) and stops (the tab still draws at full rate)`, async () => {
      const { tab } = await agentTab(mode);
      await sleep(500);
      const before = { raf: await drawRate(tab), click: await clickMs(tab) };
      assert.ok(before.raf >= 8, `the premise: keepDrawing keeps the background tab drawing (${before.raf} frames in 500 ms)`);
      const frames: FrameMessage[] = [];
      const cast = new Screencast((m) => frames.push(m));
      await cast.follow(tab);
      const live = await liveFrames(frames, 2000);
      await cast.stop();
      await sleep(500);
      const after = { raf: await drawRate(tab), click: await clickMs(tab) };
      console.log(`      ${mode}: before ${JSON.stringify(before)}, live ${JSON.stringify(live)}, after ${JSON.stringify(after)}`);
      assertLive(live, mode);
      assert.ok(after.raf >= 8, `${mode}: after the live view stopped, the background tab drew ${after.raf} frames in 500 ms (its stopScreencast must not end keepDrawing's)`);
    });

    it(`${mode}: the live view follows the tab the agent opens, as the chat panel does (keepDrawing starts just after it)`, async () => {
      const { session } = await agentTab(mode);
      const frames: FrameMessage[] = [];
      const cast = new Screencast((m) => frames.push(m));
      // The chat panel and the live view editor follow the active tab as soon as it changes: the new tab has just
      // attached, and its keepDrawing (started by Tab.attach without waiting) sends its screencast after theirs.
      const follow = (tab: Tab) => void cast.follow(tab);
      session.on('activeTabChanged', follow);
      try {
        const tab = await session.newTab(srv.origin + '/agent');
        for (let i = 0; i < 100 && cast.target !== tab; i++) await sleep(20);
        const live = await liveFrames(frames, 2000);
        console.log(`      ${mode}: the live view of the agent's new tab ${JSON.stringify(live)}`);
        assertLive(live, `${mode}, following the agent's new tab`);
      } finally {
        session.off('activeTabChanged', follow);
        await cast.stop();
      }
    });

    it(`${mode}: the live view first, then keepDrawing starts and detaches; the live view keeps its frames`, async () => {
      const { session, tab } = await agentTab(mode);
      const frames: FrameMessage[] = [];
      const cast = new Screencast((m) => frames.push(m));
      await cast.follow(tab);
      const alone = await liveFrames(frames, 2000);
      // keepDrawing on a session of its own, started while the live view runs (as Tab.attach starts it, without
      // waiting, when the live view is the first to attach a tab).
      const stop = await keepDrawing(session.connection, tab.targetId);
      await sleep(300);
      const both = await liveFrames(frames, 2000);
      stop();
      await sleep(300);
      const detached = await liveFrames(frames, 2000);
      await cast.stop();
      await sleep(500);
      const raf = await drawRate(tab);
      console.log(`      ${mode}: live ${JSON.stringify(alone)}, with keepDrawing ${JSON.stringify(both)}, after its session detached ${JSON.stringify(detached)}; then ${raf} animation frames in 500 ms`);
      assertLive(alone, `${mode}, the live view alone`);
      assertLive(both, `${mode}, with keepDrawing started after it`);
      assertLive(detached, `${mode}, after keepDrawing's session detached`);
      assert.ok(raf >= 8, `${mode}: the tab's own keepDrawing still keeps it drawing (${raf} frames in 500 ms)`);
    });
  }
});
