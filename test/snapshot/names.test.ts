// Names of controls that show a picture and a caption, in real Chromium over CDP. The cases are the corpus
// pages where the bench found our names differing from what a person sees (qq, daringfireball-1, salon-1).
import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { takeSnapshot } from '../../src/snapshot';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { load } from './fixtures';

const LONG = 'The museum shows how seltzer was bottled and sold in the city for a hundred years. '.repeat(3) + 'The last word is zeppelin.';

const PAGE = `<!doctype html><title>Names</title>
<ul>
<li><a href="/a/1"><img src="/p1.jpg" alt="Apple Watch销量大跌72%：背后有哪些原因？" width="40" height="30">Apple Watch销量大跌72%：背后有哪些原因？</a></li>
<li><a href="http://decknetwork.net/"> <img src="/deck.png" alt="Ads via The Deck" width="70" height="20"> <span>Ads via The Deck</span> </a></li>
<li><a href="/2015/03/06/protest"><img alt="Protest sexism with " width="40" height="30"><span class="title">Protest sexism with "Squirt Alert," the app</span></a></li>
<li><a href="/story/caption-first"><span>Famous literary meals</span> <img src="/m.jpg" alt="Famous literary meals" width="40" height="30"></a></li>
<li><a href="/story/chair"><img src="/c.jpg" alt="A red chair by the window" width="40" height="30"><h3>Blue chair</h3></a></li>
<li><a href="/home" title="Site: Home"><img src="/logo.png" alt="Daring Fireball" width="40" height="30"></a></li>
<li><a href="/next"><img src="/arrow.png" alt="→" width="10" height="10"> Next</a></li>
<li><form action="/find"><input type="search" name="q" aria-label="Search"><button type="submit" value="Search"><svg width="16" height="16"><path d="M1 1L15 15"/></svg></button><button type="submit" name="go"><svg width="16" height="16"><path d="M1 1L15 1"/></svg></button></form></li>
<li><span>Quantity</span> <button style="width:20px;height:20px"></button></li>
<li><a href="/places/seltzer"><img src="/s.jpg" alt="Brooklyn Seltzer Museum" width="40" height="30"><h3>Brooklyn Seltzer Museum</h3><p>${LONG}</p></a></li>
</ul>`;

describe('snapshot: names of picture-and-caption controls (real Chromium)', function () {
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
  });
  after(async () => {
    await s?.close();
    await srv?.close();
  });

  it('an image whose alt its caption says again does not say it twice in the name', () => {
    assert.match(snap, /\[\d+\] link "Apple Watch销量大跌72%：背后有哪些原因？" →\/a\/1\n/);
    assert.match(snap, /\[\d+\] link "Ads via The Deck" →decknetwork\.net\n/);
    assert.match(snap, /\[\d+\] link "Protest sexism with \\"Squirt Alert,\\" the app" →\/2015\/03\/06\/…\n/, 'an alt cut short that the caption begins with');
    assert.match(snap, /\[\d+\] link "Famous literary meals" →\/story\/…\n/, 'a caption before the picture');
  });

  it('an alt that says something else, or that is all the control shows, stays in the name', () => {
    assert.match(snap, /\[\d+\] link "A red chair by the window Blue chair" →\/story\/…\n/);
    assert.match(snap, /\[\d+\] link "Daring Fireball" →\/home\n/);
    assert.match(snap, /\[\d+\] link "→ Next"\n/);
  });

  it('a control with nothing of its own to say says what text it follows', () => {
    assert.match(snap, /\[\d+\] button \(after "Quantity"\)\n/);
  });

  it('an icon-only button says what it sends (value=, else name=), not the shape of its icon', () => {
    assert.match(snap, /\[\d+\] button value=Search\n/);
    assert.match(snap, /\[\d+\] button name=go\n/);
  });

  it('a long teaser behind a picture and its caption keeps every word: the name is cut between words, its rest follows as text', () => {
    const lines = snap.split('\n');
    const at = lines.findIndex((l) => l.includes('"Brooklyn Seltzer Museum'));
    assert.ok(at >= 0, snap);
    assert.match(lines[at], /^\[\d+\] link "Brooklyn Seltzer Museum The museum shows .*…" →\/places\/…$/);
    assert.doesNotMatch(lines[at], /Museum Brooklyn/);
    assert.match(lines[at + 1], /^….*The last word is zeppelin\.$/);
    // Cut between words: a word split over the two lines (`bot…` / `…tled`) is found on neither.
    const words = (x: string) => x.replace(/[…"]/g, ' ').split(/\s+/).filter(Boolean);
    const shown = words(lines[at].replace(/^\[\d+\] link "/, '').replace(/" →.*$/, '') + ' ' + lines[at + 1]);
    assert.deepEqual(shown, words('Brooklyn Seltzer Museum ' + LONG), 'every word once, whole, in order');
  });
});
