import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import { sleep } from '../../src/session/launcher';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

async function until<T>(fn: () => T | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = fn();
    if (v) return v;
    await sleep(20);
  }
  throw new Error('condition not met in time');
}

describe('session: tabs, popups, frames, hangs', () => {
  let s: BrowserSession;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    b = await startServer({ '/frame': '<title>inner</title><button>inside</button>' });
    a = await startServer({
      '/': '<title>home</title><a id=pop href="/second" target="_blank">open</a>',
      '/second': '<title>second</title>',
      '/frames': `<title>frames</title><iframe src="${crossSite(b.origin)}/frame"></iframe>`,
      '/hang': '<title>hang</title>',
    });
    s = await BrowserSession.launch(TEST_LAUNCH);
  });
  after(async () => {
    await s?.close();
    await a?.close();
    await b?.close();
  });

  it('opens, lists, selects and closes tabs', async () => {
    const first = await s.activeTab();
    const second = await s.newTab(a.url);
    await until(() => s.tabs().find((t) => t.id === second.targetId)?.title === 'home');
    assert.equal(s.tabs().length, 2);
    assert.equal(s.tabs().find((t) => t.active)?.id, second.targetId);
    await s.selectTab(first.targetId);
    assert.equal(s.tabs().find((t) => t.active)?.id, first.targetId);
    await s.closeTab(second.targetId);
    assert.equal(s.tabs().length, 1);
    assert.throws(() => s.getTab(second.targetId), /No tab/);
    await assert.rejects(second.session(), (e: any) => e.code === 'TAB_CLOSED');
  });

  it('follows window.open/target=_blank popups as new tabs and makes them active', async () => {
    const tab = await s.activeTab();
    const session = await tab.session();
    await session.send('Page.navigate', { url: a.url });
    await until(() => tab.title === 'home' || s.tabs().find((t) => t.id === tab.targetId)?.title === 'home');
    const popup = new Promise<any>((r) => s.once('popup', r));
    await session.send('Runtime.evaluate', { expression: `document.getElementById('pop').click()`, userGesture: true });
    const p = await popup;
    assert.equal(p.openerId, tab.targetId);
    assert.equal((await s.activeTab()).targetId, p.targetId);
    await until(() => s.tabs().find((t) => t.id === p.targetId)?.title === 'second');
    await s.closeTab(p.targetId);
    assert.equal((await s.activeTab()).targetId, tab.targetId, 'closing the popup returns to its opener');
  });

  it('auto-attaches to a cross-origin (out-of-process) iframe', async () => {
    const tab = await s.newTab('about:blank');
    await (await tab.session()).send('Page.navigate', { url: `${a.origin}/frames` });
    // The browser may swap the frame's process during navigation; wait for the one that stays.
    const frame = await until(() => tab.frameSessions().find((f) => f.url.startsWith(crossSite(b.origin))), 10_000);
    assert.equal(tab.frameSession(frame.targetId), frame);
    // The frame's own session runs script in the other origin.
    let text = '';
    for (let i = 0; i < 50 && !text; i++) {
      const r = await frame.session.send('Runtime.evaluate', { expression: 'document.querySelector("button")?.textContent ?? ""', returnByValue: true });
      text = r.result.value;
      if (!text) await sleep(50);
    }
    assert.equal(text, 'inside');
    await s.closeTab(tab.targetId);
  });

  it('times out a CDP call on a hung renderer instead of hanging, and the browser stays usable', async () => {
    const tab = await s.newTab(`${a.origin}/hang`);
    const session = await tab.session();
    // The loop runs inside this call, so the next call is queued behind it whatever the machine's load.
    session.send('Runtime.evaluate', { expression: 'while (true) {}' }, 60_000).catch(() => {});
    await assert.rejects(session.send('Runtime.evaluate', { expression: '1' }, 1000), (e: any) => e.code === 'TIMEOUT');
    await s.closeTab(tab.targetId);
    const fresh = await s.newTab('about:blank');
    assert.equal(await fresh.evaluate('3'), 3);
  });

  it('tracks a JavaScript dialog as modal state', async () => {
    const tab = await s.activeTab();
    const opened = new Promise((r) => tab.once('dialog', r));
    (await tab.session()).send('Runtime.evaluate', { expression: 'alert("hello there")' }).catch(() => {});
    await opened;
    assert.equal(tab.dialog?.type, 'alert');
    assert.throws(() => tab.assertNoDialog(), (e: any) => e.code === 'DIALOG_OPEN' && /hello there/.test(e.message));
    await (await tab.session()).send('Page.handleJavaScriptDialog', { accept: true });
    await until(() => !tab.dialog);
  });
});
