import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { takeSnapshot } from '../../src/snapshot';
import { TEST_LAUNCH } from '../helpers/chromium';
import { FIXTURE_PAGES_DIR, openPage, pageRoutes } from '../helpers/pages';
import { startServer, type TestServer } from '../helpers/servers';
import { snapshotEachPage } from './pageSet';

/** The line of the element named `name` (a line with a ref). */
function line(snap: string, name: string): string {
  const l = snap.split('\n').find((x) => /^\[[^\]]+\] /.test(x) && x.includes(`"${name}"`));
  assert.ok(l, `no element "${name}" in:\n${snap}`);
  return l;
}

/** The in-repository real-page fixtures: always present, so a fresh clone tests real-page markup too. */
describe('snapshot: in-repository real pages', function () {
  this.timeout(120_000);
  const pages = readdirSync(FIXTURE_PAGES_DIR).filter((f) => f.endsWith('.html')).sort();
  let s: BrowserSession;
  let srv: TestServer;
  let tab: Tab;
  const snapOf = async (page: string) => {
    await openPage(tab, srv.url + page);
    return takeSnapshot(tab);
  };
  before(async () => {
    srv = await startServer(pageRoutes(FIXTURE_PAGES_DIR, pages));
    s = await BrowserSession.launch(TEST_LAUNCH);
    tab = await s.activeTab();
  });
  after(async () => {
    await s?.close();
    await srv?.close();
  });

  it('snapshots every fixture page (both layers)', async () => {
    assert.ok(pages.length >= 6, `only ${pages.length} fixture pages`);
    assert.deepEqual(await snapshotEachPage(tab, srv.url, pages), []);
  });

  it('news article: hover menus are left out, the cookie banner covers the form below it', async () => {
    const snap = await snapOf('news-article.html');
    for (const hidden of ['Archive 2019', 'Local news']) assert.ok(!snap.includes(hidden), `${hidden} is hidden`);
    assert.match(line(snap, 'Search the Courier'), /searchbox/);
    assert.match(line(snap, 'Share on Mastodon'), /button/);
    assert.match(line(snap, 'Share by email'), /button/); // named by its title
    assert.match(line(snap, 'Can I bring a bicycle?'), /button .* collapsed$/);
    assert.match(snap, /^# Night trains return to the Alps after twenty years$/m);
    assert.match(snap, /^A seat starts at 29 francs/m);
    assert.match(line(snap, 'Subscribe'), /covered-by/);
    assert.doesNotMatch(line(snap, 'Accept all'), /covered-by/);
  });

  it('shop product: hidden tab panels stay out, radio and select states are read', async () => {
    const snap = await snapOf('shop-product.html');
    assert.ok(!snap.includes('285 g') && !snap.includes('Free returns'), 'hidden tab panels are not listed');
    assert.match(snap, /A light trail shoe with a 6 mm drop/);
    assert.match(line(snap, 'Description'), /tab "Description" selected$/);
    assert.match(line(snap, '42'), /radio "42" checked$/);
    assert.match(line(snap, '44'), /radio "44" disabled$/);
    assert.match(line(snap, 'Quantity'), /spinbutton "Quantity" .*value="1"/);
    assert.match(line(snap, 'Delivery'), /combobox "Delivery" value="Standard \(3–5 days\)" options=\[.*Express \(next day\).*Pick up in store"?\]/);
    assert.match(line(snap, 'Moss green'), /clickable "Moss green"/); // a swatch with only onclick and a title
  });

  it('sign-in: a password filled by the page is never shown', async () => {
    const snap = await snapOf('signin.html');
    assert.match(line(snap, 'Password'), /textbox "Password" required password filled$/);
    assert.ok(!snap.includes('correct-horse-battery'), 'the password value is not in the snapshot');
    assert.match(line(snap, 'Keep me signed in'), /checkbox/);
  });

  it('orders table: rows read as rows, closed row menus stay out', async () => {
    const snap = await snapOf('orders-table.html');
    assert.match(snap, /\| Ines Duarte \| €1,240\.00 \| Paid \|/);
    assert.ok(!snap.includes('Print invoice'), 'closed menus are not listed');
    assert.match(line(snap, 'Actions for #10482'), /button .* collapsed$/);
    // The path only spells the name: no target repeats it.
    assert.match(line(snap, 'Orders'), /link "Orders" current$/);
  });

  it('forum thread: the same-origin iframe gets frame refs, a contenteditable reply box is a textbox', async () => {
    const snap = await snapOf('forum-thread.html');
    assert.match(snap, /\[frame f\d+\]\nHow often do you bake\?\n\[f\d+:\d+\] radio "Daily"/);
    assert.match(line(snap, 'Vote'), /^\[f\d+:\d+\] button "Vote"$/);
    assert.match(line(snap, 'Write a reply'), /textbox "Write a reply"/);
    assert.match(line(snap, 'Upvote'), /button "Upvote"/); // a span with role=button
  });

  it('legacy portal: the alert() on load is answered and the table layout is read', async () => {
    const snap = await snapOf('legacy-portal.html');
    assert.equal(tab.dialog, undefined);
    assert.match(snap, /^\[\d+\] combobox name=kind value="Street light out"/m); // named only by its name attribute
    assert.match(line(snap, 'Send report'), /button "Send report"/);
    assert.match(line(snap, 'Library'), /clickable "Library"/); // a td with onclick
    assert.match(snap, /\| Town hall \| Mon–Fri 08:00–16:00/);
  });
});
