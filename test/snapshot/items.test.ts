// Ref rules for items inside containers, structure words, drawn content and whole values, in real
// Chromium over CDP (the widget pages are driven through the MCP server in test/mcp/widgets.test.ts).
import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { elementDetails, findInPage, takeSnapshot } from '../../src/snapshot';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { load } from './fixtures';

const lines = (snap: string) => snap.split('\n').filter((l) => /^\[\d+\]/.test(l));
function line(snap: string, name: string): string {
  const l = lines(snap).find((x) => x.includes(`"${name}"`));
  assert.ok(l, `no line named "${name}" in:\n${snap}`);
  return l;
}

const PAGE = `<!doctype html><title>Items</title>
<style>.card{border:1px solid #999;padding:8px;width:300px;cursor:pointer} .heart{cursor:pointer} .hidden{display:none}</style>
<div class=card id=card onclick="document.title='card'"><h3>Blue chair</h3><p>Comfortable, 49 EUR</p><span class=heart id=heart>♥</span></div>
<button>Send<span class=hidden> secret draft text</span></button>
<ul role=tree aria-label=Files>
  <li role=treeitem aria-expanded=true aria-level=1>Projects
    <ul role=group><li role=treeitem aria-level=2>alpha</li><li role=treeitem aria-level=2>beta</li></ul></li>
  <li role=treeitem aria-expanded=false aria-level=1>Archive<ul role=group class=hidden><li role=treeitem>old</li></ul></li>
</ul>
<div role=listbox tabindex=0 aria-label=Size><div role=option>Small</div><div role=option aria-selected=true>Medium</div><div role=option>Large</div></div>
<table><tbody id=rows><tr><td>Invoice 1</td><td>10 EUR</td></tr><tr><td>Invoice 2</td><td>20 EUR</td></tr></tbody></table>
<div id=wrap><p>Pick one:</p><div id=opts><span>Red</span><span>Green</span><span>Blue</span></div></div>
<label>Comment <input id=comment></label><label>Secret <input type=password id=pw></label>
<script>
  document.getElementById('heart').addEventListener('click', (e) => { e.stopPropagation(); document.title = 'heart'; });
  document.getElementById('rows').addEventListener('click', (e) => { document.title = e.target.closest('tr').cells[0].textContent; });
  document.getElementById('opts').addEventListener('click', (e) => { document.title = e.target.textContent; });
  document.getElementById('comment').value = 'x'.repeat(100) + 'NEEDLE';
  document.getElementById('pw').value = 'p'.repeat(100);
</script>`;

describe('snapshot: items inside containers, structure, whole values (real Chromium)', function () {
  this.timeout(60_000);
  let s: BrowserSession;
  let srv: TestServer;
  let tab: Tab;
  let snap: string;
  before(async () => {
    srv = await startServer({ '/': PAGE });
    s = await BrowserSession.launch(TEST_LAUNCH);
    tab = await s.activeTab();
    await load(tab, srv.url);
    snap = await takeSnapshot(tab);
    if (process.env.ITEMS_DUMP) console.log(snap);
  });
  after(async () => {
    await s?.close();
    await srv?.close();
  });

  it('a card keeps its ref for its own text; a child with its own listener gets its own ref', () => {
    const card = line(snap, 'Blue chair Comfortable, 49 EUR');
    assert.doesNotMatch(card, /♥/);
    assert.ok(lines(snap).some((l) => /"♥"/.test(l)), snap);
  });

  it('hidden descendants never feed a name', () => {
    line(snap, 'Send');
    assert.doesNotMatch(snap, /secret draft/);
  });

  it('ARIA trees and listboxes say level, position and state; the parent is not named after its children', () => {
    const projects = line(snap, 'Projects');
    assert.match(projects, /1 of 2 in tree "Files" level=1 expanded/);
    assert.match(line(snap, 'beta'), /2 of 2 level=2/);
    assert.match(line(snap, 'Archive'), /2 of 2 level=1 collapsed/);
    assert.doesNotMatch(snap, /"old"/);
    assert.match(line(snap, 'Medium'), /2 of 3 selected/);
    assert.match(line(snap, 'Small'), /1 of 3 in listbox "Size"/);
    assert.doesNotMatch(line(snap, 'alpha'), /in tree/, 'only the first item of a group names the container');
  });

  it('rows of a table body with a delegated listener are items; repeated spans behind a wrapper too', () => {
    const inv = line(snap, 'Invoice 2 20 EUR');
    assert.match(inv, /^\[\d+\] row .*2 of 2/);
    assert.match(line(snap, 'Green'), /2 of 3/);
    assert.ok(!lines(snap).some((l) => /"Red Green Blue"|"Invoice 1 10 EUR Invoice 2/.test(l)), snap);
    assert.doesNotMatch(snap, /^\|[ |]*$/m, 'no empty cell separators left by rows that became items');
  });

  it('a long value is cut with a marker; details and find read it whole; a password never', async () => {
    const comment = line(snap, 'Comment');
    assert.match(comment, /value="x{60}…"\(\+46 chars\)/);
    const ref = /^\[(\d+)\]/.exec(comment)![1];
    const d = await elementDetails(tab, [ref]);
    assert.ok(d.includes('x'.repeat(100) + 'NEEDLE'), d);
    const f = await findInPage(tab, 'NEEDLE');
    assert.match(f, /1 match/);
    assert.match(f, /full value: "x{100}NEEDLE"/);
    const pw = line(snap, 'Secret');
    assert.doesNotMatch(pw, /ppp/);
    const dp = await elementDetails(tab, [/^\[(\d+)\]/.exec(pw)![1]]);
    assert.doesNotMatch(dp, /ppp/);
    assert.match(await findInPage(tab, 'pppp'), /No element or text matches/);
  });
});
