import assert from 'node:assert/strict';
import { clickAt, clickElement, hoverElement } from '../../src/actions/click';
import { typeInto } from '../../src/actions/type';
import { waitFor } from '../../src/actions/wait';
import { crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { evalPage, handleOf, pageHandle, startHarness, type Harness } from './harness';
import { buttons, frameInner, frames } from './pages';
import { sleep } from '../../src/session/launcher';

describe('actions: clicking with actionability checks', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ '/': buttons, '/inner': frameInner });
    srv.route('/frames', frames(crossSite(srv.origin), srv.origin));
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });
  beforeEach(async () => {
    await h.ok('browser_navigate', { url: srv.url });
  });
  const events = () => evalPage<string[]>(h, 'window.events');

  it('clicks, double-clicks, right-clicks and holds modifiers with real input', async () => {
    const s = await h.scope();
    const r = await clickElement(s, await pageHandle(h, '#plain'.replace(/^/, 'document.querySelector("') + '")', 'button', 'Plain'));
    assert.equal(r.text, 'Clicked button "Plain"');
    await clickElement(s, await pageHandle(h, 'document.querySelector("#dbl")', 'button', 'Double'), { doubleClick: true });
    await clickElement(s, await pageHandle(h, 'document.querySelector("#ctx")', 'button', 'Right'), { button: 'right' });
    await clickElement(s, await pageHandle(h, 'document.querySelector("#mods")', 'button', 'Mods'), { modifiers: ['Control', 'Shift'] });
    await clickElement(s, await pageHandle(h, 'document.querySelector("#hold")', 'button', 'Hold'), { holdMs: 300 });
    assert.deepEqual(await events(), ['plain', 'dbl', 'right', 'mods:cs', 'held:true']);
  });

  it('scrolls a far element into view before clicking it', async () => {
    const s = await h.scope();
    await clickElement(s, await pageHandle(h, 'document.querySelector("#far")', 'button', 'Far below'));
    assert.deepEqual(await events(), ['far']);
    assert.ok((await evalPage<number>(h, 'scrollY')) > 1000);
  });

  it('reports COVERED naming the overlay instead of clicking it', async () => {
    const s = await h.scope();
    await assert.rejects(clickElement(s, await pageHandle(h, 'document.querySelector("#covered")', 'button', 'Covered')), (e: any) => {
      assert.equal(e.code, 'COVERED');
      assert.match(e.message, /div#cookie-banner "We use cookies"/);
      return true;
    });
    assert.deepEqual(await events(), []);
  });

  it('refuses disabled and hidden elements with NOT_INTERACTABLE', async () => {
    const s = await h.scope();
    await assert.rejects(clickElement(s, await pageHandle(h, 'document.querySelector("#disabled")', 'button', 'Disabled')), (e: any) => e.code === 'NOT_INTERACTABLE' && /disabled/.test(e.message));
    await assert.rejects(clickElement(s, await pageHandle(h, 'document.querySelector("#hidden")', 'button', 'Hidden')), (e: any) => e.code === 'NOT_INTERACTABLE' && /not visible/.test(e.message));
  });

  it('waits for a moving button to stop, then clicks it', async () => {
    await evalPage(h, `document.getElementById('moving').style.left = '400px'`);
    const s = await h.scope();
    await clickElement(s, await pageHandle(h, 'document.querySelector("#moving")', 'button', 'Moving'));
    assert.deepEqual(await events(), ['moving']);
  });

  it('says STALE_REF when the element was removed', async () => {
    const s = await h.scope();
    const btn = await pageHandle(h, 'document.querySelector("#plain")', 'button', 'Plain');
    await evalPage(h, `document.getElementById('plain').remove()`);
    await assert.rejects(clickElement(s, btn), (e: any) => e.code === 'STALE_REF' && /button "Plain"/.test(e.message));
  });

  it('clicks a hidden styled checkbox through its label', async () => {
    const s = await h.scope();
    const r = await clickElement(s, await pageHandle(h, 'document.querySelector("#hiddencheck")', 'checkbox', 'Styled checkbox'));
    assert.match(r.text, /through its label/);
    assert.equal(await evalPage(h, 'document.getElementById("hiddencheck").checked'), true);
  });

  it('clicks inside an open shadow root', async () => {
    const s = await h.scope();
    await clickElement(s, await pageHandle(h, 'document.querySelector("x-card").shadowRoot.querySelector("button")', 'button', 'Shadow button'));
    assert.deepEqual(await events(), ['shadow']);
  });

  it('reports what a coordinate click hit, and refuses points outside the viewport', async () => {
    const s = await h.scope();
    const box = await evalPage<{ x: number; y: number }>(h, `(() => { const r = document.getElementById('plain').getBoundingClientRect(); return { x: r.x + 5, y: r.y + 5 }; })()`);
    const r = await clickAt(s, box);
    assert.match(r.text, /which hit button#plain "Plain"/);
    assert.deepEqual(await events(), ['plain']);
    const banner = await evalPage<{ x: number; y: number }>(h, `(() => { const r = document.getElementById('covered').getBoundingClientRect(); return { x: r.x + 5, y: r.y + 5 }; })()`);
    assert.match((await clickAt(s, banner)).text, /div#cookie-banner/);
    await assert.rejects(clickAt(s, { x: 5000, y: 10 }), (e: any) => e.code === 'INVALID_INPUT');
  });

  it('clicks in same-origin and cross-origin (out-of-process) iframes at the right place', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/frames` });
    const s = await h.scope();
    const same = await handleOf(s.page, `document.getElementById('same').contentDocument.getElementById('inner')`, 'button', 'Inner');
    await clickElement(s, same);
    assert.equal(await evalPage(h, `document.getElementById('same').contentDocument.getElementById('inner').textContent`), 'clicked 1');
    let oopif;
    for (let i = 0; i < 100 && !(oopif = s.tab.frameSessions().find((f) => f.url.includes('localhost'))); i++) await sleep(50);
    assert.ok(oopif, 'cross-origin iframe attached as its own target');
    for (let i = 0; i < 100; i++) {
      const r = await oopif.session.send('Runtime.evaluate', { expression: `document.readyState === 'complete' && !!document.getElementById('inner')`, returnByValue: true }).catch(() => undefined);
      if (r?.result.value) break;
      await sleep(50);
    }
    const cross = await handleOf(oopif.session, `document.getElementById('inner')`, 'button', 'Inner', oopif.targetId);
    const r = await clickElement(s, cross);
    assert.equal(r.text, 'Clicked button "Inner"');
    const after = await oopif.session.send('Runtime.evaluate', { expression: `document.getElementById('inner').textContent`, returnByValue: true });
    assert.equal(after.result.value, 'clicked 1');
    // The coordinate click on the OOPIF says it went into a cross-origin frame.
    const hit = await clickAt(s, { x: 450, y: 280 });
    assert.match(hit.text, /cross-origin iframe/);
    // An overlay in the top page over the frame is reported, not clicked through.
    await evalPage(h, `document.body.insertAdjacentHTML('beforeend', '<div id=modal style="position:fixed;inset:0;background:rgba(0,0,0,.3)">Modal</div>')`);
    await assert.rejects(clickElement(s, cross), (e: any) => e.code === 'COVERED' && /div#modal "Modal"/.test(e.message));
  });

  it('hovers (mouse moves to the element)', async () => {
    const s = await h.scope();
    await evalPage(h, `document.getElementById('plain').onmouseenter = () => ev('enter')`);
    await hoverElement(s, await pageHandle(h, 'document.querySelector("#plain")', 'button', 'Plain'));
    assert.deepEqual(await events(), ['enter']);
  });
});

describe('actions: typing inside iframes and shadow DOM, waiting on element state', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ '/inner': frameInner, '/shadow': `<x-f></x-f><button id=later hidden>Later</button><script>customElements.define('x-f', class extends HTMLElement { constructor(){ super(); this.attachShadow({mode:'open'}).innerHTML = '<input id=si>'; } })</script>` });
    srv.route('/frames', frames(crossSite(srv.origin), srv.origin));
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });

  it('types into an input inside a cross-origin iframe and inside a shadow root', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/frames` });
    const s = await h.scope();
    let oopif;
    for (let i = 0; i < 100 && !(oopif = s.tab.frameSessions().find((f) => f.url.includes('localhost'))); i++) await sleep(50);
    assert.ok(oopif);
    for (let i = 0; i < 100; i++) {
      const r = await oopif.session.send('Runtime.evaluate', { expression: `!!document.getElementById('innerText')`, returnByValue: true }).catch(() => undefined);
      if (r?.result.value) break;
      await sleep(50);
    }
    await typeInto(s, await handleOf(oopif.session, `document.getElementById('innerText')`, 'textbox', 'Inner', oopif.targetId), 'über frame');
    const v = await oopif.session.send('Runtime.evaluate', { expression: `document.getElementById('innerText').value`, returnByValue: true });
    assert.equal(v.result.value, 'über frame');
    await h.ok('browser_navigate', { url: `${srv.origin}/shadow` });
    const s2 = await h.scope();
    await typeInto(s2, await handleOf(s2.page, `document.querySelector('x-f').shadowRoot.getElementById('si')`, 'textbox', 'Shadow'), 'in shadow');
    assert.equal(await evalPage(h, `document.querySelector('x-f').shadowRoot.getElementById('si').value`), 'in shadow');
  });

  it('waits for an element to become visible, and for it to be removed', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/shadow` });
    const s = await h.scope();
    const later = await pageHandle(h, `document.getElementById('later')`, 'button', 'Later');
    await evalPage(h, `setTimeout(() => document.getElementById('later').hidden = false, 200)`);
    assert.match((await waitFor(s, { state: 'visible', element: async () => later, timeoutMs: 5000 }, 'Visible')).text, /Visible met after/);
    await evalPage(h, `setTimeout(() => document.getElementById('later').remove(), 200)`);
    assert.match((await waitFor(s, { state: 'detached', element: async () => later, timeoutMs: 5000 })).text, /met after/);
    await assert.rejects(waitFor(s, { state: 'visible', element: async () => later, timeoutMs: 300 }), (e: any) => e.code === 'TIMEOUT');
  });
});
