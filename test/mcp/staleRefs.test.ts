import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { sleep } from '../../src/session/launcher';
import { allTools } from '../../src/tools/registry';
import { crossSite } from '../helpers/chromium';
import { daemonEnv, until } from '../helpers/daemon';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * Issue 28 through the real MCP server on real Chromium: a ref is valid only for the document (and frame
 * document) in which it was shown to the client. The model snapshots page A (ref N = button "Cancel"),
 * the tab moves on to page B (ref N = button "Wipe"), and the model acts on ref N without having been
 * shown B's ref N: the action must fail with STALE_REF naming what the ref was, and click nothing.
 *
 * Every button, field and drag handle reports what happened to it to the test's server (a beacon per
 * event), so "nothing was clicked" is read on the server, not on the tool's word. Each check of "nothing
 * happened" is followed by a control: the same or another element acted on with a ref that *was* shown,
 * whose beacon does arrive (so the check could have failed, and the earlier requests had time to land).
 *
 * Pages come in two layouts: "small" (the issue's: the stale ref is 2) and "long" (30 filler buttons
 * first, so the stale ref is 32: an action result lists at most 25 element lines of a new page, so such
 * a ref is not shown by the navigation's own result however results are worded). A ref an action result
 * did print (`+ [5] button "Save"`) has been shown and must work; each test checks that the results it
 * got after the snapshot did not show the ref it then uses as stale (else the test would not test the
 * rule, and says so).
 */

type Call = McpProcess['call'];
type Result = Awaited<ReturnType<Call>>;

// ---------------------------------------------------------------------------------------------------
// The site: pages keyed by a token `k` (one per test), beacons counted per token.

interface Site {
  server: TestServer;
  origin: string;
  /** How many beacons `b` pages of token `k` sent. */
  count(k: string, b: string): number;
  /** All beacons of token `k`, `name×count`, for messages. */
  seen(k: string): string;
  /** Beacons of token `k` whose name matches. */
  matching(k: string, re: RegExp): string[];
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The head every page shares: `hit(name)` sends a beacon for this page's token. */
function head(title: string, k: string): string {
  return `<!doctype html><meta charset=utf-8><title>${esc(title)}</title>
<script>const K = ${JSON.stringify(k)}; function hit(b) { fetch('/beacon?k=' + encodeURIComponent(K) + '&b=' + encodeURIComponent(b), { keepalive: true, cache: 'no-store' }).catch(() => {}); }</script>`;
}
const loaded = (name: string) =>
  `<script>window.addEventListener('load', () => hit(${JSON.stringify(`loaded ${name}`)})); window.addEventListener('pageshow', (e) => { if (e.persisted) hit(${JSON.stringify(`restored ${name}`)}); });</script>`;
const button = (name: string, beacon: string) => `<button onclick="hit('${beacon}')">${esc(name)}</button>`;

type Layout = 'small' | 'long';
const FILLERS = 30;

/**
 * Page A (its control "OK", then "Cancel") or page B (its control "Keep", then "Wipe") — the same
 * structure, so Cancel and Wipe get the same ref number: 2 (small) or 32 (long). Both end with
 * [33] button "Go soon" (runs `go` a second after a click) and [34] link "Next page" (to `next`).
 */
function doc(side: 'A' | 'B', layout: Layout, k: string, opts: { next?: string; go?: string; tag?: string } = {}): string {
  const fillers = layout === 'long' ? Array.from({ length: FILLERS }, (_, i) => button(`${side} filler ${i}`, `${side} filler ${i}`)).join('\n') : '';
  const [control, target] = side === 'A' ? ['OK', 'Cancel'] : ['Keep', 'Wipe'];
  const tag = opts.tag ?? side;
  return `${head(`Page ${side}`, k)}
<h1>Page ${side}</h1>
${fillers}
${button(control, `${tag} ${control.toLowerCase()}`)}
${button(target, `${tag} ${target.toLowerCase()}`)}
<button onclick="setTimeout(() => { ${esc(opts.go ?? 'void 0')} }, 1000)">Go soon</button>
<a href="${esc(opts.next ?? '#')}">Next page</a>
${loaded(tag)}`;
}

/** The generated test's pages: one element of each kind a ref-taking tool acts on, after 25 fillers. */
const GEN_NAMES = {
  A: { textbox: 'Draft name', combobox: 'Draft plan', button: 'Cancel', file: 'Draft attachment', row: 'Draft row', card: 'Draft card', bin: 'Draft bin' },
  B: { textbox: 'Secret note', combobox: 'Billing plan', button: 'Wipe', file: 'Evidence upload', row: 'Ledger row', card: 'Ledger card', bin: 'Shredder' },
} as const;
type GenKind = keyof (typeof GEN_NAMES)['A'];

function genDoc(side: 'A' | 'B', k: string): string {
  const n = GEN_NAMES[side];
  const fillers = Array.from({ length: 25 }, (_, i) => button(`${side} filler ${i}`, `${side} filler ${i}`)).join('\n');
  // On B, every input event anywhere is reported (capture phase), and each target reports its own events.
  const spy =
    side === 'B'
      ? `<script>
for (const t of ['pointerdown', 'mousedown', 'mouseup', 'click', 'dblclick', 'keydown', 'input', 'change', 'dragstart', 'drop', 'contextmenu']) window.addEventListener(t, (e) => hit('B any ' + t), true);
const on = (id, t, b) => document.getElementById(id).addEventListener(t, b);
on('tb', 'input', (e) => hit('B typed ' + e.target.value));
on('cb', 'change', (e) => hit('B selected ' + e.target.value));
on('bt', 'mouseenter', () => hit('B hover'));
on('fi', 'change', (e) => hit('B upload ' + e.target.files.length));
on('sb', 'scroll', () => hit('B scroll'));
on('cd', 'pointerdown', () => hit('B drag start'));
on('bn', 'pointerup', () => hit('B drop'));
</script>`
      : '';
  return `${head(`Generated ${side}`, k)}
<style>#sb { height: 80px; overflow: auto; border: 1px solid; } #sb div { height: 600px; } button { margin: 2px; }</style>
<h1>Generated ${side}</h1>
${fillers}
<p><label>${n.textbox} <input id=tb></label></p>
<p><label>${n.combobox} <select id=cb><option>Basic</option><option>Pro</option></select></label></p>
<p><button id=bt onclick="hit('${side} button')">${n.button}</button></p>
<p><label>${n.file} <input id=fi type=file></label></p>
<div id=sb><div><button onclick="hit('${side} row')">${n.row}</button></div></div>
<p><button id=cd onclick="hit('${side} card')">${n.card}</button> <button id=bn onclick="hit('${side} bin')">${n.bin}</button></p>
${spy}
${loaded(side)}`;
}

async function startSite(): Promise<Site> {
  const hits = new Map<string, Map<string, number>>();
  const loads = new Map<string, number>();
  const q = (req: { url?: string }) => new URL(req.url ?? '/', 'http://x').searchParams;
  // `?nostore=1` (and the reloading page) forbid caching, which also keeps a page out of the back/forward cache.
  const html = (body: string, nostore: boolean) => (req: any, res: any) => {
    void req;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(nostore ? { 'cache-control': 'no-store' } : {}) });
    res.end(body);
  };
  const page = (render: (p: URLSearchParams) => string) => (req: any, res: any) => html(render(q(req)), q(req).get('nostore') === '1')(req, res);
  const server = await startServer({
    '/beacon': (req, res) => {
      const p = q(req);
      const k = p.get('k') ?? '';
      const b = p.get('b') ?? '';
      const m = hits.get(k) ?? new Map<string, number>();
      m.set(b, (m.get(b) ?? 0) + 1);
      hits.set(k, m);
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
    },
    '/a': page((p) => doc('A', p.get('layout') as Layout, p.get('k')!, { next: p.get('next') ?? undefined, go: p.get('next') ? `location.href = ${JSON.stringify(p.get('next'))}` : undefined })),
    '/b': page((p) => doc('B', p.get('layout') as Layout, p.get('k')!)),
    // The same URL serves A on its first load and B on the next (a reload is a new document).
    '/r': (req, res) => {
      const p = q(req);
      const k = p.get('k')!;
      const n = (loads.get(k) ?? 0) + 1;
      loads.set(k, n);
      html(doc(n % 2 ? 'A' : 'B', p.get('layout') as Layout, k, { go: 'location.reload()', tag: `${n % 2 ? 'A' : 'B'}${n}` }), true)(req, res);
    },
    // A parent whose iframe shows A's frame page; "Swap" points the iframe at B's a second later.
    '/parent': page((p) => {
      const k = p.get('k')!;
      const frameOrigin = p.get('frameOrigin')!;
      const src = (side: string) => `${frameOrigin}/frame${side}?k=${encodeURIComponent(k)}`;
      return `${head('Parent', k)}
<h1>Parent</h1>
${button('Parent OK', 'parent ok')}
<button onclick="setTimeout(() => { document.querySelector('iframe').src = ${esc(JSON.stringify(src('B')))}; }, 1000)">Swap</button>
<iframe src="${esc(src('A'))}" style="width: 600px; height: 1400px"></iframe>
${loaded('parent')}`;
    }),
    '/frameA': page((p) => doc('A', 'long', p.get('k')!, { tag: 'frame A' })),
    '/frameB': page((p) => doc('B', 'long', p.get('k')!, { tag: 'frame B' })),
    // One document whose route changes by history.pushState and whose content is replaced.
    '/spa': page((p) => {
      const k = p.get('k')!;
      const settings = `<button onclick="hit('save')">Save</button><button onclick="hit('wipe')">Wipe</button>`;
      return `${head('Shop', k)}
<header>${button('Home', 'home')}
<button onclick="history.pushState({}, '', '/spa/settings?k=' + encodeURIComponent(K)); document.getElementById('c').innerHTML = ${esc(JSON.stringify(settings))}; document.title = 'Settings'">Settings</button>
<a href="#bottom">Jump</a></header>
<main id=c>${button('Cancel', 'cancel')}</main>
<p id=bottom style="margin-top: 1500px">Bottom</p>
${loaded('spa')}`;
    }),
    '/gen-a': page((p) => genDoc('A', p.get('k')!)),
    '/gen-b': page((p) => genDoc('B', p.get('k')!)),
  });
  return {
    server,
    origin: server.origin,
    count: (k, b) => hits.get(k)?.get(b) ?? 0,
    seen: (k) => [...(hits.get(k) ?? new Map<string, number>())].map(([b, n]) => `${b}×${n}`).join(', ') || 'none',
    matching: (k, re) => [...(hits.get(k)?.keys() ?? [])].filter((b) => re.test(b)),
    close: () => server.close(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Reading results.

let tokens = 0;
const token = (what: string) => `${what.replace(/\W+/g, '-')}-${++tokens}-${Date.now().toString(36)}`;

/** The ref of `role "name"` in a snapshot or find result. */
function refOf(text: string, role: string, name: string): string {
  const m = new RegExp(`\\[([\\w:]+)\\] ${role} ${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(text);
  if (!m) throw new Error(`no ${role} "${name}" in\n${text}`);
  return m[1];
}

/** Whether a result printed ref `ref` (a snapshot line, a delta line, a find match). */
const shows = (text: string, ref: string) => new RegExp(`\\[${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]`).test(text);

/** The precondition of every stale-ref check: no result since the snapshot showed the ref again. */
function notShownSince(results: Array<[string, Result]>, ref: string): void {
  for (const [what, r] of results) {
    assert.ok(
      !shows(r.text, ref),
      `precondition: the ${what} result printed ref ${ref} itself, so acting on it would be legitimate and this test would not test issue 28. ` +
        `(If this is a navigation's result listing the new page's elements: the fix says it no longer does.)\n${r.text}`,
    );
  }
}

function assertStale(r: Result, was: string, context: string): void {
  assert.ok(r.isError && /(^|\n)STALE_REF:/.test(r.text), `${context} should fail with STALE_REF; it gave${r.isError ? ' an error' : ' success'}:\n${r.text}`);
  assert.ok(r.text.includes(was), `${context}: the STALE_REF text names what the ref was (${was}):\n${r.text}`);
}

const codeOf = (r: Result) => (r.isError ? /(?:^|\n)([A-Z_]+):/.exec(r.text)?.[1] : undefined);

// ---------------------------------------------------------------------------------------------------
// The scenarios, once with the server's own browser and once through a session daemon of the test's own.

const MODES = ['in-process (--no-daemon)', 'through the session daemon'] as const;

for (const mode of MODES)
  describe(`mcp (${mode}): a ref is valid only for the document it was shown in (issue 28, real MCP server, real Chromium)`, function () {
    this.timeout(120_000);
    let site: Site;
    let mcp: McpProcess;
    let call: Call;
    const url = (path: string, params: Record<string, string>) => `${site.origin}${path}?${new URLSearchParams(params)}`;

    before(async () => {
      site = await startSite();
      // --allow-confirm-actions: the safety policy never stands between the action and the ref check here.
      const args = [...HEADLESS_ARGS, '--allow-confirm-actions'];
      mcp = mode.startsWith('in-process') ? await startMcp([...args, '--no-daemon']) : await startMcp(args, 'ignore', { daemonEnv: daemonEnv(1500) });
      call = (name, a, t) => mcp.call(name, a, t ?? 90_000);
    });
    after(async () => {
      await mcp?.close();
      await site?.close();
    });

    /** Waits for a beacon, then a little more, so that requests sent before it have landed too. */
    async function beacon(k: string, b: string, n = 1): Promise<void> {
      await until(() => site.count(k, b) >= n, 30_000, `beacon "${b}" ×${n} (seen: ${site.seen(k)})`);
      await sleep(300);
    }

    /** Clicks a ref that was shown (from a find on this page) and waits for its beacon: the control. */
    async function controlClick(k: string, name: string, b: string): Promise<void> {
      const found = await call('browser_find', { query: name });
      const r = await call('browser_click', { ref: refOf(found.text, 'button', name) });
      assert.equal(r.isError, false, `control click on "${name}": ${r.text}`);
      await beacon(k, b);
    }

    async function pageA(k: string, layout: Layout, extra: Record<string, string> = {}): Promise<{ snap: string; cancel: string }> {
      const nav = await call('browser_navigate', { url: url('/a', { k, layout, ...extra }) });
      assert.equal(nav.isError, false, nav.text);
      const snap = (await call('browser_snapshot')).text;
      return { snap, cancel: refOf(snap, 'button', 'Cancel') };
    }

    describe('another page in the tab', () => {
      for (const [layout, via] of [
        ['small', 'browser_navigate'],
        ['long', 'browser_navigate'],
        ['long', 'a link click'],
        ['long', 'the page itself (a timer)'],
      ] as const) {
        it(`${layout} pages, navigated by ${via}: the old ref gives STALE_REF naming "Cancel", and "Wipe" (same ref on B) is not clicked`, async () => {
          const k = token(`nav-${layout}-${via}`);
          const next = url('/b', { k, layout });
          const { snap, cancel } = await pageA(k, layout, { next });
          const since: Array<[string, Result]> = [];
          if (via === 'browser_navigate') since.push(['browser_navigate', await call('browser_navigate', { url: next })]);
          else if (via === 'a link click') since.push(['link click', await call('browser_click', { ref: refOf(snap, 'link', 'Next page') })]);
          else since.push(['"Go soon" click', await call('browser_click', { ref: refOf(snap, 'button', 'Go soon') })]);
          await beacon(k, 'loaded B');
          for (const [what, r] of since) assert.equal(r.isError, false, `${what}: ${r.text}`);

          const stale = await call('browser_click', { ref: cancel });
          // Nothing on B was clicked: the control click on B's "Keep" lands, the "Wipe" beacon never did.
          await controlClick(k, 'Keep', 'B keep');
          notShownSince(since, cancel);
          assertStale(stale, 'button "Cancel"', `click [${cancel}] after the page changed`);
          assert.equal(site.count(k, 'B wipe'), 0, `"Wipe" on page B was clicked through the stale ref (beacons: ${site.seen(k)}); the result said:\n${stale.text}`);
          assert.deepEqual(site.matching(k, /^[AB] (filler|cancel|ok)/), [], `nothing else was clicked (beacons: ${site.seen(k)})`);

          // Shown again by a snapshot of B, the same ref number is B's "Wipe" and works (so the harness could see a click).
          const snapB = (await call('browser_snapshot')).text;
          assert.equal(refOf(snapB, 'button', 'Wipe'), cancel, 'harness: B has "Wipe" at the ref A had "Cancel"');
          const fresh = await call('browser_click', { ref: cancel });
          assert.equal(fresh.isError, false, fresh.text);
          await beacon(k, 'B wipe');
        });
      }

      for (const cache of ['cacheable (may come back from the back/forward cache)', 'no-store (loaded anew)'] as const)
      it(`back to the previous page (browser_navigate_back), ${cache}: a ref last shown on B gives STALE_REF naming "Wipe"; neither A nor B is clicked`, async () => {
        const k = token(`back-${cache.split(' ')[0]}`);
        const nostore: Record<string, string> = cache.startsWith('no-store') ? { nostore: '1' } : {};
        await pageA(k, 'long', nostore);
        const nav = await call('browser_navigate', { url: url('/b', { k, layout: 'long', ...nostore }) });
        assert.equal(nav.isError, false, nav.text);
        const snapB = (await call('browser_snapshot')).text;
        const wipe = refOf(snapB, 'button', 'Wipe');
        const back = await call('browser_navigate_back');
        assert.equal(back.isError, false, back.text);
        // Page A again (from the back/forward cache or loaded anew): ref `wipe` is its "Cancel", never shown for this visit.
        const stale = await call('browser_click', { ref: wipe });
        await controlClick(k, 'OK', 'A ok');
        const how = site.count(k, 'restored A') ? 'restored from the back/forward cache' : `loaded anew (page A loaded ${site.count(k, 'loaded A')} times)`;
        notShownSince([['browser_navigate_back', back]], wipe);
        assertStale(stale, 'button "Wipe"', `click [${wipe}] after going back to page A, ${how},`);
        assert.deepEqual(site.matching(k, /cancel|wipe/), [], `neither "Cancel" nor "Wipe" was clicked (beacons: ${site.seen(k)})`);
      });
    });

    describe('a reload of the same URL is a new document', () => {
      for (const via of ['browser_reload', 'browser_navigate to the same URL', 'the page itself (location.reload)'] as const) {
        it(`by ${via}: the old ref gives STALE_REF, nothing is clicked; after a new snapshot the ref works`, async () => {
          const k = token(`reload-${via}`);
          const same = url('/r', { k, layout: 'long' });
          const nav = await call('browser_navigate', { url: same });
          assert.equal(nav.isError, false, nav.text);
          await beacon(k, 'loaded A1');
          const snap = (await call('browser_snapshot')).text;
          const cancel = refOf(snap, 'button', 'Cancel');
          const since: Array<[string, Result]> = [];
          if (via === 'browser_reload') since.push([via, await call('browser_reload')]);
          else if (via === 'browser_navigate to the same URL') since.push([via, await call('browser_navigate', { url: same })]);
          else since.push(['"Go soon" click', await call('browser_click', { ref: refOf(snap, 'button', 'Go soon') })]);
          for (const [what, r] of since) assert.equal(r.isError, false, `${what}: ${r.text}`);
          // The second load serves page B (its "Wipe" at the ref A's "Cancel" had).
          await beacon(k, 'loaded B2');

          const stale = await call('browser_click', { ref: cancel });
          await controlClick(k, 'Keep', 'B2 keep');
          notShownSince(since, cancel);
          assertStale(stale, 'button "Cancel"', `click [${cancel}] after a reload`);
          assert.deepEqual(site.matching(k, /cancel|wipe|filler/), [], `nothing was clicked through the stale ref (beacons: ${site.seen(k)}); the result said:\n${stale.text}`);

          const again = (await call('browser_snapshot')).text;
          assert.equal(refOf(again, 'button', 'Wipe'), cancel, 'harness: the reloaded page has "Wipe" at that ref');
          const fresh = await call('browser_click', { ref: cancel });
          assert.equal(fresh.isError, false, `after a new snapshot the ref works: ${fresh.text}`);
          assert.match(fresh.text, /Clicked button "Wipe"/);
          await beacon(k, 'B2 wipe');
        });
      }
    });

    describe('an iframe that navigates while its parent stays', () => {
      for (const where of ['same-site', 'cross-site (out of process)'] as const) {
        it(`${where}: the frame's old ref gives STALE_REF, the frame's "Wipe" is not clicked; the parent's refs still work`, async () => {
          const k = token(`frame-${where}`);
          const frameOrigin = where === 'same-site' ? site.origin : crossSite(site.origin);
          const nav = await call('browser_navigate', { url: url('/parent', { k, frameOrigin }) });
          assert.equal(nav.isError, false, nav.text);
          await beacon(k, 'loaded frame A');
          const snap = (await call('browser_snapshot')).text;
          const cancel = refOf(snap, 'button', 'Cancel');
          assert.match(cancel, /^f\d+:\d+$/, `the frame's "Cancel" has a frame ref:\n${snap}`);
          const parentOk = refOf(snap, 'button', 'Parent OK');
          const swap = await call('browser_click', { ref: refOf(snap, 'button', 'Swap') });
          assert.equal(swap.isError, false, swap.text);
          await beacon(k, 'loaded frame B');

          const stale = await call('browser_click', { ref: cancel });
          // The parent's ref, shown in the same snapshot, still acts: its document did not change.
          const parent = await call('browser_click', { ref: parentOk });
          assert.equal(parent.isError, false, `the parent's ref still works: ${parent.text}`);
          await beacon(k, 'parent ok');
          await controlClick(k, 'Keep', 'frame B keep');
          notShownSince([['"Swap" click', swap]], cancel);
          assertStale(stale, 'button "Cancel"', `click [${cancel}] after its frame navigated`);
          assert.equal(site.count(k, 'frame B wipe'), 0, `the frame's "Wipe" was clicked through the stale ref (beacons: ${site.seen(k)}); the result said:\n${stale.text}`);
          assert.deepEqual(site.matching(k, /cancel|wipe|filler/), [], `nothing else was clicked (beacons: ${site.seen(k)})`);
          const again = (await call('browser_snapshot')).text;
          assert.equal(refOf(again, 'button', 'Wipe').replace(/^f\d+:/, ''), cancel.replace(/^f\d+:/, ''), 'harness: the frame\'s "Wipe" has the number its "Cancel" had');
        });
      }
    });

    it('history.pushState in the same document: a ref of an element still there acts, a ref of replaced content gives STALE_REF, a ref the delta showed works', async () => {
      const k = token('pushstate');
      const nav = await call('browser_navigate', { url: url('/spa', { k }) });
      assert.equal(nav.isError, false, nav.text);
      const snap = (await call('browser_snapshot')).text;
      const home = refOf(snap, 'button', 'Home');
      const cancel = refOf(snap, 'button', 'Cancel');
      const settings = await call('browser_click', { ref: refOf(snap, 'button', 'Settings') });
      assert.equal(settings.isError, false, settings.text);
      assert.match(settings.text, /\/spa\/settings/, `the route changed: ${settings.text}`);

      const gone = await call('browser_click', { ref: cancel });
      assertStale(gone, 'button "Cancel"', 'click on replaced content');
      const kept = await call('browser_click', { ref: home });
      assert.equal(kept.isError, false, `a ref of the header, still in this document, acts after pushState: ${kept.text}`);
      await beacon(k, 'home');
      // The click's result printed the new content (`+ [N] button "Save"`): that ref was shown and acts.
      const save = refOf(settings.text, 'button', 'Save');
      const saved = await call('browser_click', { ref: save });
      assert.equal(saved.isError, false, `a ref shown in an action's delta works: ${saved.text}`);
      await beacon(k, 'save');
      // A same-document hash navigation keeps the refs too.
      const jump = await call('browser_click', { ref: refOf(snap, 'link', 'Jump') });
      assert.equal(jump.isError, false, jump.text);
      const again = await call('browser_click', { ref: home });
      assert.equal(again.isError, false, `after a #hash navigation the header ref still acts: ${again.text}`);
      await beacon(k, 'home', 2);
      assert.equal(site.count(k, 'cancel'), 0);
      assert.equal(site.count(k, 'wipe'), 0, `nothing was clicked through the stale ref (beacons: ${site.seen(k)})`);
    });

    it('a ref shown by browser_find on the new page works', async () => {
      const k = token('find');
      await pageA(k, 'long');
      const nav = await call('browser_navigate', { url: url('/b', { k, layout: 'long' }) });
      assert.equal(nav.isError, false, nav.text);
      const found = await call('browser_find', { query: 'Wipe' });
      const wipe = refOf(found.text, 'button', 'Wipe');
      const r = await call('browser_click', { ref: wipe });
      assert.equal(r.isError, false, `a ref browser_find showed on this page acts: ${r.text}`);
      assert.match(r.text, /Clicked button "Wipe"/);
      await beacon(k, 'B wipe');
      assert.equal(site.count(k, 'B wipe'), 1);
    });

    describe('refs of another tab', () => {
      const closeOthers = async () => {
        // Leave one tab for the next test: close the active one until one is left.
        for (let i = 0; i < 5; i++) {
          const list = (await call('browser_tabs', { action: 'list' })).text;
          if ((list.match(/^\d+\. /gm) ?? []).length <= 1) return;
          await call('browser_tabs', { action: 'close' });
        }
      };

      it('a ref from tab 1 used in a new tab (browser_tabs new) is refused; nothing is clicked in tab 2', async () => {
        const k = token('tab-new');
        const { cancel } = await pageA(k, 'long');
        try {
          const opened = await call('browser_tabs', { action: 'new', url: url('/b', { k, layout: 'long' }) });
          assert.equal(opened.isError, false, opened.text);
          await beacon(k, 'loaded B');
          const stale = await call('browser_click', { ref: cancel });
          await controlClick(k, 'Keep', 'B keep');
          notShownSince([['browser_tabs new', opened]], cancel);
          assert.ok(stale.isError && ['STALE_REF', 'TARGET_NOT_FOUND'].includes(codeOf(stale) ?? ''), `expected STALE_REF or TARGET_NOT_FOUND, got:\n${stale.text}`);
          assert.equal(site.count(k, 'B wipe'), 0, `"Wipe" in tab 2 was clicked with tab 1's ref (beacons: ${site.seen(k)})`);
        } finally {
          await closeOthers();
        }
      });

      it('a ref from tab 2 used after selecting tab 1 (browser_tabs select) is refused; nothing is clicked in tab 1', async () => {
        const k = token('tab-select');
        // Tab 1 shows B; the model never saw B's refs past the navigation's own result (which lists at most 25).
        const nav = await call('browser_navigate', { url: url('/b', { k, layout: 'long' }) });
        assert.equal(nav.isError, false, nav.text);
        try {
          const opened = await call('browser_tabs', { action: 'new', url: url('/a', { k, layout: 'long' }) });
          assert.equal(opened.isError, false, opened.text);
          const snapA = (await call('browser_snapshot')).text;
          const cancel = refOf(snapA, 'button', 'Cancel');
          const list = (await call('browser_tabs', { action: 'list' })).text;
          const first = /^(\d+)\. (?!\(active\))/m.exec(list);
          assert.ok(first, `tab 1 in the list:\n${list}`);
          const selected = await call('browser_tabs', { action: 'select', index: Number(first[1]) });
          assert.equal(selected.isError, false, selected.text);
          const stale = await call('browser_click', { ref: cancel });
          await controlClick(k, 'Keep', 'B keep');
          notShownSince([['browser_navigate', nav], ['browser_tabs new', opened], ['browser_tabs select', selected]], cancel);
          assert.ok(stale.isError && ['STALE_REF', 'TARGET_NOT_FOUND'].includes(codeOf(stale) ?? ''), `expected STALE_REF or TARGET_NOT_FOUND, got:\n${stale.text}`);
          assert.equal(site.count(k, 'B wipe'), 0, `"Wipe" in tab 1 was clicked with tab 2's ref (beacons: ${site.seen(k)}); the result said:\n${stale.text}`);
          assert.equal(site.count(k, 'A cancel'), 0);
        } finally {
          await closeOthers();
        }
      });
    });

    describe('a ref never shown', () => {
      it('"99" on a page that has 34 elements gives TARGET_NOT_FOUND', async () => {
        const k = token('never-99');
        await pageA(k, 'long');
        const r = await call('browser_click', { ref: '99' });
        assert.equal(codeOf(r), 'TARGET_NOT_FOUND', r.text);
        assert.deepEqual(site.matching(k, /^A (cancel|ok|filler)/), []);
      });

      it('a ref that exists on the page but no result showed (a find listed another element) gives TARGET_NOT_FOUND; nothing is clicked', async () => {
        const k = token('never-unshown');
        // A tab of its own: on a tab that showed this number on an earlier page, the answer is STALE_REF instead.
        assert.equal((await call('browser_tabs', { action: 'new' })).isError, false);
        const nav = await call('browser_navigate', { url: url('/b', { k, layout: 'long' }) });
        assert.equal(nav.isError, false, nav.text);
        const found = await call('browser_find', { query: 'Keep' });
        const keep = refOf(found.text, 'button', 'Keep');
        // "Wipe" is the next element in document order.
        const wipe = String(Number(keep) + 1);
        const r = await call('browser_click', { ref: wipe });
        await controlClick(k, 'Keep', 'B keep');
        notShownSince([['browser_navigate', nav], ['browser_find', found]], wipe);
        assert.equal(site.count(k, 'B wipe'), 0, `"Wipe" was clicked through a ref no result showed (beacons: ${site.seen(k)}); the result said:\n${r.text}`);
        assert.equal(codeOf(r), 'TARGET_NOT_FOUND', r.text);
        assert.equal(refOf((await call('browser_snapshot')).text, 'button', 'Wipe'), wipe, 'harness: that ref is "Wipe"');
        assert.equal((await call('browser_tabs', { action: 'close' })).isError, false);
      });
    });
  });

// ---------------------------------------------------------------------------------------------------
// Generated: every ref a tool of the registry takes, used stale.

/** Where a tool's input takes a ref: `ref`, `refs`, `fields[].ref`, `fromRef`, … (JSON-schema paths). */
function refPaths(schema: any, path = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const out: string[] = [];
  const describesRef = (s: any) => /element ref|ref from browser_|under this ref/i.test(`${s?.description ?? ''} ${s?.items?.description ?? ''}`);
  for (const [key, sub] of Object.entries<any>(schema.properties ?? {})) {
    const p = path ? `${path}.${key}` : key;
    if (/^refs?$/i.test(key) || /Refs?$/.test(key) || describesRef(sub)) out.push(p);
    else out.push(...refPaths(sub, p));
  }
  if (schema.items) out.push(...refPaths(schema.items, `${path}[]`));
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) out.push(...refPaths(alt, path));
  return [...new Set(out)];
}

/** Each tool's input as the MCP server lists it (src/mcp/server.ts converts the same way). */
const REF_PATHS: Array<{ tool: string; path: string }> = allTools.flatMap((t) =>
  refPaths(z.toJSONSchema(t.schema as z.ZodType, { io: 'input', unrepresentable: 'any' })).map((path) => ({ tool: t.name, path })),
);

interface GenCase {
  /** Which element of page A the stale ref is (page B has its counterpart at the same number). */
  kind: GenKind;
  /** The arguments, given the stale ref and refs of page B shown by a find (for the other end of a drag). */
  args(stale: string, fresh: Record<string, string>, file: string): Record<string, unknown>;
  /** Elements of B to find first (their refs are shown, legitimately). */
  fresh?: GenKind[];
  /** Beacons that say the action happened on B (the control must send one; the stale action none). */
  effect?: RegExp;
  /** A read: B's element must not be described (its name absent), and no image. */
  read?: boolean;
  /**
   * browser_element_details reports each gone ref on its own line (`[5] button "X": gone from the page
   * (STALE_REF)`) rather than failing the call; that form is accepted too, as long as it names what the ref was.
   */
  perRefLine?: boolean;
  /** What a read's control result says when it does not name the element (browser_wait). */
  controlSays?: RegExp;
}

/**
 * One entry per ref a tool takes. A tool that takes a ref and has no entry fails the test below, so no
 * new tool can skip the rule.
 */
const GEN: Record<string, GenCase> = {
  'browser_click.ref': { kind: 'button', args: (ref) => ({ ref }), effect: /^B (button|any click)/ },
  'browser_hover.ref': { kind: 'button', args: (ref) => ({ ref }), effect: /^B hover$/ },
  'browser_type.ref': { kind: 'textbox', args: (ref) => ({ ref, text: 'typed through a stale ref' }), effect: /^B (typed|any input)/ },
  'browser_fill_form.fields[].ref': { kind: 'textbox', args: (ref) => ({ fields: [{ ref, value: 'filled through a stale ref' }] }), effect: /^B (typed|any input)/ },
  'browser_select_option.ref': { kind: 'combobox', args: (ref) => ({ ref, values: ['Pro'] }), effect: /^B (selected|any change)/ },
  'browser_drag.fromRef': { kind: 'card', fresh: ['bin'], args: (ref, f) => ({ fromRef: ref, toRef: f.bin }), effect: /^B (drag start|drop|any (pointerdown|mousedown))/ },
  'browser_drag.toRef': { kind: 'bin', fresh: ['card'], args: (ref, f) => ({ fromRef: f.card, toRef: ref }), effect: /^B (drag start|drop|any (pointerdown|mousedown))/ },
  'browser_upload_file.ref': { kind: 'file', args: (ref, _f, file) => ({ ref, paths: [file] }), effect: /^B (upload|any change)/ },
  'browser_scroll.ref': { kind: 'row', args: (ref) => ({ ref, direction: 'down', amount: 200 }), effect: /^B scroll$/ },
  'browser_element_details.refs': { kind: 'button', args: (ref) => ({ refs: [ref] }), read: true, perRefLine: true },
  'browser_screenshot.ref': { kind: 'button', args: (ref) => ({ ref }), read: true },
  'browser_wait.ref': { kind: 'button', args: (ref) => ({ ref, state: 'visible', timeoutMs: 3000 }), read: true, controlSays: /^Waited for the element to be visible/ },
  'browser_snapshot.ref': { kind: 'button', args: (ref) => ({ ref }), read: true },
};

const ROLE: Record<GenKind, string> = { textbox: 'textbox', combobox: 'combobox', button: 'button', file: '\\S+', row: 'button', card: 'button', bin: 'button' };
const genRef = (text: string, side: 'A' | 'B', kind: GenKind) => refOf(text, ROLE[kind], GEN_NAMES[side][kind]);

describe('mcp (in-process): every tool that takes a ref refuses a ref of the previous page (generated from the tool registry)', function () {
  this.timeout(120_000);
  let site: Site;
  let mcp: McpProcess;
  let work: string;
  let file: string;

  before(async () => {
    site = await startSite();
    work = mkdtempSync(join(tmpdir(), 'ba-staleref-'));
    file = join(work, 'evidence.txt');
    writeFileSync(file, 'evidence\n');
    mcp = await startMcp([...HEADLESS_ARGS, '--allow-confirm-actions', '--no-daemon']);
  });
  after(async () => {
    await mcp?.close();
    await site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the registry is read right: the tools known to take refs are found, and every ref a tool takes has a case', async () => {
    const found = REF_PATHS.map((p) => `${p.tool}.${p.path}`).sort();
    for (const known of Object.keys(GEN)) assert.ok(found.includes(known), `${known} is no longer a ref of its tool (found: ${found.join(', ')}): update the table`);
    const missing = found.filter((p) => !GEN[p]);
    assert.deepEqual(missing, [], `tools take refs the table has no case for: ${missing.join(', ')}. Add each to GEN in this file, so the tool is tested against stale refs.`);
    // The server lists the same tools (the model's view).
    const listed = (await mcp.client.listTools()).tools.map((t) => t.name);
    for (const p of REF_PATHS) assert.ok(listed.includes(p.tool), `${p.tool} is listed by the MCP server`);
  });

  for (const { tool, path } of REF_PATHS) {
    it(`${tool} (${path}): a ref of page A used on page B gives STALE_REF and does nothing on B; shown again, it works`, async () => {
      const c = GEN[`${tool}.${path}`];
      assert.ok(c, `no case for ${tool}.${path} in GEN: add one, so this tool is tested against stale refs`);
      const k = token(`gen-${tool}-${path}`);
      const call: Call = (name, a, t) => mcp.call(name, a, t ?? 90_000);

      const navA = await call('browser_navigate', { url: `${site.origin}/gen-a?k=${encodeURIComponent(k)}` });
      assert.equal(navA.isError, false, navA.text);
      const snapA = (await call('browser_snapshot')).text;
      const stale = genRef(snapA, 'A', c.kind);
      const wasName = GEN_NAMES.A[c.kind];
      // Park the mouse away from every element, so no hover happens on B by itself.
      await call('browser_hover', { x: 1, y: 1 });
      const navB = await call('browser_navigate', { url: `${site.origin}/gen-b?k=${encodeURIComponent(k)}` });
      assert.equal(navB.isError, false, navB.text);
      await until(() => site.count(k, 'loaded B') >= 1, 30_000, 'page B loaded');
      const since: Array<[string, Result]> = [['browser_navigate', navB]];
      const fresh: Record<string, string> = {};
      for (const kind of c.fresh ?? []) {
        const f = await call('browser_find', { query: GEN_NAMES.B[kind] });
        since.push([`browser_find "${GEN_NAMES.B[kind]}"`, f]);
        fresh[kind] = genRef(f.text, 'B', kind);
      }
      const args = c.args(stale, fresh, file);

      const r = await call(tool, args);
      await sleep(500);
      const effects = site.matching(k, /^B (?!loaded)/);

      // The control: B snapshotted (now its refs are shown), the same arguments act on B's counterpart.
      const snapB = (await call('browser_snapshot')).text;
      assert.equal(genRef(snapB, 'B', c.kind), stale, `harness: page B has its ${c.kind} at the ref page A had its own`);
      const control = await call(tool, args);
      assert.equal(control.isError, false, `control (${tool} with the ref shown by a snapshot of B): ${control.text}`);
      if (c.effect) await until(() => site.matching(k, c.effect!).length > 0, 30_000, `${tool}'s effect on B in the control (beacons: ${site.seen(k)})`);
      else assert.ok(control.text.includes(GEN_NAMES.B[c.kind]) || control.images > 0 || !!c.controlSays?.test(control.text), `control: ${tool} reads B's element:\n${control.text}`);

      notShownSince(since, stale);
      const was = `${JSON.stringify(wasName)}`;
      if (c.perRefLine && !r.isError) assert.ok(new RegExp(`\\[${stale}\\] [^\\n]*${was}[^\\n]*\\(STALE_REF\\)`).test(r.text), `${tool} ${JSON.stringify(args)} should say STALE_REF for [${stale}] naming ${was}; it said:\n${r.text}`);
      else assertStale(r, was, `${tool} ${JSON.stringify(args)}`);
      assert.deepEqual(effects, [], `${tool} with a stale ref did something on page B: ${effects.join(', ')}; the result said:\n${r.text}`);
      assert.ok(!snapB.includes('through a stale ref'), `${tool} with a stale ref wrote into B's field:\n${snapB}`);
      if (c.read) {
        const counterpart = GEN_NAMES.B[c.kind];
        assert.ok(!r.text.includes(counterpart), `${tool} with a stale ref described B's "${counterpart}":\n${r.text}`);
        assert.equal(r.images, 0, `${tool} with a stale ref returned an image`);
      }
    });
  }
});
