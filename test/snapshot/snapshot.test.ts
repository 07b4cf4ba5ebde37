import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { takeSnapshot, elementDetails, findInPage, snapshotDelta, resolveRef, fingerprint, describeElement } from '../../src/snapshot';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { BASICS, FRAME_INNER, RERENDER, SHADOW, bigPage, framesPage, load } from './fixtures';

/** The line of the element whose quoted name is `name`. */
function line(snap: string, name: string): string {
  const l = snap.split('\n').find((x) => x.includes(`"${name}"`) && x.startsWith('['));
  assert.ok(l, `no line for "${name}" in:\n${snap}`);
  return l;
}
const refOf = (l: string) => /^\[([^\]]+)\]/.exec(l)![1];

describe('snapshot: elements layer in real Chromium', function () {
  this.timeout(60_000);
  let s: BrowserSession;
  let srv: TestServer;
  let tab: Tab;
  let snap: string;
  before(async () => {
    srv = await startServer({ '/': BASICS, '/inner': FRAME_INNER, '/shadow': SHADOW, '/rerender': RERENDER, '/big': bigPage(20_000) });
    srv.route('/frames', framesPage(crossSite(srv.origin)));
    s = await BrowserSession.launch(TEST_LAUNCH);
    tab = await s.activeTab();
    await load(tab, srv.url);
    snap = await takeSnapshot(tab);
  });
  after(async () => {
    await s?.close();
    await srv?.close();
  });

  it('wraps page content in a delimited untrusted block', () => {
    // One fence for everything the page wrote, its URL included; a nonce of at least 48 bits.
    assert.match(snap, /^\d+ interactive elements\.\n<page-content id=(\d{15})>\nURL: http:\/\/127\.0\.0\.1:\d+\/\nTitle: /);
    const m = /\n<page-content id=(\w+)>\n[\s\S]*\n<\/page-content id=(\w+)>/.exec(snap);
    assert.ok(m && m[1] === m[2]);
    assert.equal(snap.match(/<page-content id=/g)?.length, 1, 'one fence');
    assert.match(snap, /Title: Basics/);
  });

  it('names inputs from labels, shows every state, never a password', () => {
    assert.match(line(snap, 'Email'), /^\[\d+\] textbox "Email" required type=email value="a@b.c"$/);
    assert.match(line(snap, 'Password'), /textbox "Password" password filled$/);
    assert.doesNotMatch(snap, /hunter2/);
    assert.match(line(snap, 'Bio'), /textbox "Bio" multiline value="Hello there"/);
    assert.doesNotMatch(line(snap, 'Nickname'), /multiline/);
    assert.match(line(snap, 'Nickname'), /readonly invalid/);
    assert.match(line(snap, 'Remember me'), /checkbox "Remember me" checked$/);
    assert.match(line(snap, 'Select all'), /checkbox "Select all" mixed$/);
    assert.match(line(snap, 'Two'), /radio "Two" checked$/);
    assert.match(line(snap, 'One'), /radio "One"$/);
    assert.match(line(snap, 'Save'), /button "Save" disabled/);
    assert.match(line(snap, 'More options'), /collapsed/);
    assert.match(line(snap, 'Bold'), /pressed/);
    assert.match(line(snap, 'General'), /tab "General" selected/);
    assert.match(line(snap, 'Focused field'), /focused/);
    assert.match(line(snap, 'Show more'), /button "Show more" collapsed/);
  });

  it('lists native select options (long lists summarised), multi-selects, sliders, contenteditable', () => {
    assert.match(line(snap, 'Country'), /combobox "Country" value="Country 3" options=\[Country 0\|.*\|Country 7\|…\] \(8 of 20; browser_snapshot with this ref lists all\)$/);
    assert.match(line(snap, 'Toppings'), /listbox "Toppings" selected="Cheese, Olives"/);
    assert.match(line(snap, 'Volume'), /slider "Volume" value=30 min=0 max=100/);
    assert.match(line(snap, 'Notes'), /textbox "Notes" value="Draft text"/);
  });

  it('finds icon-only, pointer and listener-only controls and names them', () => {
    assert.match(snap, /\] button \(search icon\)/); // background-image file name
    assert.match(line(snap, 'Close dialog'), /button "Close dialog"/);
    assert.match(line(snap, 'Open menu'), /button "Open menu"/);
    assert.match(snap, /clickable \([^)]*svg: red circle\)/);
    assert.match(snap, /\] clickable id=listener\n/); // only an addEventListener('click'); its id is no icon
    assert.match(snap, /Read the\n\[\d+\] clickable "terms"\nfirst\./); // inline span gets its own ref
  });

  it('skips hidden, off-canvas and zero-size elements; keeps aria-hidden visible menus and hidden file inputs', () => {
    for (const hidden of ['Hidden link', 'Invisible link', 'Zero', 'Hidden body']) {
      assert.ok(!snap.includes(hidden), `${hidden} should not be listed`);
    }
    assert.match(line(snap, 'Menu one'), /link "Menu one"/);
    // Parked off-screen but reachable by keyboard (skip links): listed, and marked.
    assert.match(line(snap, 'Offscreen link'), /link "Offscreen link" →\/c offscreen$/);
    assert.match(line(snap, 'Skip to content'), /link "Skip to content" →\/d offscreen$/);
    assert.match(snap, /\] file "Choose file" hidden/);
    assert.match(line(snap, 'Dark mode'), /checkbox "Dark mode"/); // label drawn over an invisible input
  });

  it('marks elements covered by an overlay and keeps offscreen ones', () => {
    assert.match(line(snap, 'Covered button'), /covered-by div "cookie banner"/);
    assert.match(line(snap, 'Far below'), /^\[\d+\] button "Far below"$/);
    assert.doesNotMatch(line(snap, 'Docs'), /covered/);
  });

  it('viewport-only and subtree scopes', async () => {
    const vp = await takeSnapshot(tab, { viewportOnly: true });
    assert.ok(!vp.includes('Far below'));
    assert.match(vp, /# Account settings/);
    assert.match(vp, /in the viewport/);
    const country = refOf(line(snap, 'Country'));
    const sub = await takeSnapshot(tab, { ref: country });
    assert.match(sub, /^1 interactive elements inside \[\d+\]\.\n<page-content id=\d+>\nURL: /);
    assert.equal(refOf(line(sub, 'Country')), country);
    assert.match(line(sub, 'Country'), /options=\[Country 0\|.*\|Country 19\]$/, 'the subtree of a select lists all its options');
  });

  it('cuts at a token budget between lines and reads on from the offset it names', async () => {
    const small = await takeSnapshot(tab, { maxTokens: 200 });
    assert.ok(small.length / 3.6 < 260, `too long: ${small.length}`);
    const m = /\[Cut by the 200-token budget after line (\d+) of (\d+);.*Read on: browser_snapshot with offset=(\d+), maxTokens=200\./.exec(small);
    assert.ok(m, small);
    const next = await takeSnapshot(tab, { maxTokens: 200, offset: Number(m[3]) });
    assert.match(next, new RegExp(`Lines ${Number(m[3]) + 1}–\\d+ of ${m[2]}`));
    const full = await takeSnapshot(tab);
    assert.doesNotMatch(full, /Cut by/);
    await assert.rejects(takeSnapshot(tab, { maxTokens: 5 }), (e: any) => e.code === 'INVALID_INPUT');
    await assert.rejects(takeSnapshot(tab, { offset: 100_000 }), (e: any) => e.code === 'INVALID_INPUT' && /past the end/.test(e.message));
  });

  it('summary layer is short and informative', async () => {
    const sum = await takeSnapshot(tab, { layer: 'summary' });
    assert.match(sum, /Viewport \d+x\d+, scrolled to 0,0/);
    assert.match(sum, /Counts: \d+ links, \d+ buttons/);
    assert.match(sum, /Focused: \[\d+\] textbox "Focused field"/);
    assert.ok(sum.length < 1500);
  });

  it('details, find, fingerprint and resolveRef', async () => {
    const terms = refOf(line(snap, 'terms'));
    const d = await elementDetails(tab, [terms]);
    assert.match(d, /selector: #terms/);
    assert.match(d, /xpath: \/html\/body\/p\/span/);
    assert.match(d, /bbox: x=\d+ y=\d+ w=\d+ h=\d+/);
    assert.match(d, /parent text: "Please fill in the form below/);
    const docs = refOf(line(snap, 'Docs'));
    assert.match(await elementDetails(tab, [docs]), /href: http:\/\/127\.0\.0\.1:\d+\/docs/);
    const f = await findInPage(tab, 'country');
    assert.match(f, /combobox "Country"/);
    const fr = await findInPage(tab, '^Read the', { regex: true });
    assert.match(fr, /Read the/);
    await assert.rejects(findInPage(tab, '(', { regex: true }), (e: any) => e.code === 'INVALID_INPUT');
    const h = await resolveRef(tab, docs);
    assert.equal(h.role, 'link');
    assert.equal(h.name, 'Docs');
    assert.ok(h.backendNodeId > 0);
    const { node } = await h.session.send('DOM.describeNode', { backendNodeId: h.backendNodeId });
    assert.equal(node.localName, 'a');
    assert.equal(describeElement(h), 'link "Docs"');
    const fp = await fingerprint(tab, docs);
    assert.equal(fp.frame, 'main');
    assert.ok(fp.selector && fp.xpath);
    await assert.rejects(resolveRef(tab, '99999'), (e: any) => e.code === 'TARGET_NOT_FOUND');
    await assert.rejects(resolveRef(tab, 'button.submit'), (e: any) => e.code === 'TARGET_NOT_FOUND');
  });

  it('resolveRef calls at the same time each get their element (one call\'s cleanup never frees another\'s)', async () => {
    const refs = [...(await takeSnapshot(tab)).matchAll(/\[(\d+)\] /g)].map((m) => m[1]);
    assert.ok(refs.length >= 5, 'the page has elements');
    // Several rounds: the window between one call's evaluation and its describeNode is short.
    for (let round = 0; round < 5; round++) {
      const handles = await Promise.all([...refs, ...refs].map((r) => resolveRef(tab, r)));
      for (const h of handles) assert.ok(h.backendNodeId > 0, `ref ${h.ref}`);
    }
  });

  it('delta after a DOM change', async () => {
    await takeSnapshot(tab);
    await tab.evaluate(`document.querySelector('a[href="/docs"]').textContent = 'Documentation';
      document.getElementById('far').remove();
      const b = document.createElement('button'); b.textContent = 'Brand new'; document.body.append(b);
      document.querySelector('#fancy').checked = true;`);
    const { said, page, newDocument } = await snapshotDelta(tab);
    const delta = page.join('\n');
    assert.equal(newDocument, false);
    assert.deepEqual(said, [], 'the lines say what changed: no count of them');
    // What changed, said once: the new name with the old one, a state that came, no copy of the unchanged parts.
    assert.match(delta, /^~ \[\d+\] link "Documentation" →\/docs \(was "Docs"\)$/m);
    assert.match(delta, /^~ \[\d+\] "Dark mode" checked$/m);
    assert.match(delta, /^\+ \[\d+\] button "Brand new"$/m);
    assert.match(delta, /^- \[\d+\] button "Far below"$/m);
    assert.deepEqual(await snapshotDelta(tab), { said: ['No change on the page.'], page: [], newDocument: false });
  });

  it('same-origin and cross-origin (OOPIF) iframes get frame refs that resolve', async () => {
    await load(tab, `${srv.origin}/frames`);
    for (let i = 0; i < 50 && tab.frameSessions().length < 1; i++) await new Promise((r) => setTimeout(r, 50));
    const fs = await takeSnapshot(tab);
    const pays = fs.split('\n').filter((l) => l.includes('"Pay now"'));
    assert.equal(pays.length, 2, fs);
    const prefixes = pays.map((l) => /^\[f(\d+):\d+\]/.exec(l)?.[1]);
    assert.ok(prefixes[0] && prefixes[1] && prefixes[0] !== prefixes[1], fs);
    assert.match(fs, /\[frame f\d+\]\nInside the frame/);
    assert.match(fs, /\[\/frame f\d+\]\nAfter frames/);
    for (const l of pays) {
      const h = await resolveRef(tab, refOf(l));
      assert.equal(h.name, 'Pay now');
      const { node } = await h.session.send('DOM.describeNode', { backendNodeId: h.backendNodeId });
      assert.equal(node.localName, 'button');
    }
    assert.ok(tab.frameSessions().length >= 1, 'the cross-site frame should be out of process');
    const d = await elementDetails(tab, [refOf(pays[1])]);
    assert.match(d, /tag: button/);
  });

  it('open shadow roots, with slotted light DOM in rendered order', async () => {
    await load(tab, `${srv.origin}/shadow`);
    const sh = await takeSnapshot(tab);
    assert.match(sh, /## Card title text\n\[\d+\] button "Shadow action"\n\[\d+\] textbox "Shadow input"/);
    const h = await resolveRef(tab, refOf(line(sh, 'Shadow action')));
    assert.ok(h.backendNodeId > 0);
    assert.match(await elementDetails(tab, [h.ref]), /in the shadow root of my-card/);
  });

  it('keeps refs stable across snapshots and re-renders; stale refs name the element and the closest match', async () => {
    await load(tab, `${srv.origin}/rerender`);
    const a = await takeSnapshot(tab);
    const b = await takeSnapshot(tab);
    assert.equal(refOf(line(a, 'Save')), refOf(line(b, 'Save')));
    await tab.evaluate('rerender()'); // replaces every node
    const c = await takeSnapshot(tab);
    assert.equal(refOf(line(c, 'Save')), refOf(line(a, 'Save')), 're-rendered button keeps its ref');
    const oldLink = refOf(line(a, 'Link 0'));
    assert.notEqual(refOf(line(c, 'Link 1')), oldLink, 'a changed element gets a new ref');
    await assert.rejects(resolveRef(tab, oldLink), (e: any) => e.code === 'STALE_REF' && /link "Link 0"/.test(e.message) && /Closest current match: \[\d+\] link "Link 1"/.test(e.message));
    const del = refOf(line(c, 'Delete'));
    await tab.evaluate('dropDelete()');
    await assert.rejects(resolveRef(tab, del), (e: any) => e.code === 'STALE_REF' && /button "Delete"/.test(e.message));
    // After a navigation, old refs are stale; numbering restarts in the new document, so refs stay short.
    await load(tab, `${srv.origin}/rerender`);
    await assert.rejects(resolveRef(tab, refOf(line(c, 'Save'))), (e: any) => e.code === 'STALE_REF');
    const d = await takeSnapshot(tab);
    assert.equal(refOf(line(d, 'Save')), '1');
    assert.equal(refOf(line(await takeSnapshot(tab), 'Save')), '1', 'and stays stable within the document');
  });

  // Its speed is measured by npm run bench:snapshot (synthetic 20k page), not asserted here.
  it('lists every element of a 20k-element page, compactly', async () => {
    await load(tab, `${srv.origin}/big`, 30_000);
    const big = await takeSnapshot(tab);
    const count = Number(/(\d+) interactive elements/.exec(big)![1]);
    assert.equal(count, 20_000);
    assert.ok(big.length / count < 40, `chars per element ${big.length / count}`);
  });

  it('refuses to snapshot behind a JavaScript dialog with DIALOG_OPEN', async () => {
    await load(tab, `${srv.origin}/rerender`);
    const session = await tab.session();
    const opened = new Promise((r) => tab.once('dialog', r));
    void session.send('Runtime.evaluate', { expression: 'setTimeout(() => alert("hi"), 0)' });
    await opened;
    await assert.rejects(takeSnapshot(tab), (e: any) => e.code === 'DIALOG_OPEN');
    await session.send('Page.handleJavaScriptDialog', { accept: true });
  });

  it('fails fast with DIALOG_OPEN when a dialog opens during extraction', async () => {
    await load(tab, `${srv.origin}/rerender`);
    const session = await tab.session();
    // The page alerts the moment our extractor reads the layout (a hostile page could do this).
    await tab.evaluate(`Object.defineProperty(HTMLElement.prototype, 'onclick', { get() { return null; } }); setTimeout(() => alert('during'), 30)`);
    let code = '';
    for (let i = 0; i < 20 && !code; i++) {
      await takeSnapshot(tab).catch((e) => (code = e.code));
    }
    // DIALOG_OPEN, not a TIMEOUT of a CDP call stuck behind the dialog.
    assert.equal(code, 'DIALOG_OPEN');
    await session.send('Page.handleJavaScriptDialog', { accept: true });
    assert.match(await takeSnapshot(tab), /button "Save"/);
  });
});
