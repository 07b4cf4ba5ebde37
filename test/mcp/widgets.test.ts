// Widget pages through the real MCP server, real Chromium and the real MCP client: an agent that
// reads only the snapshot text must find each item by its visible text and act on it by ref, and the
// page must react as it does to a person's click.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { LONG_TEXT, widgetRoutes } from '../snapshot/widgets';

const MCP_BIN = join(__dirname, '..', '..', '..', 'dist', 'mcp.js');
const DUMP = !!process.env.WIDGETS_DUMP;

interface Result {
  text: string;
  isError: boolean;
}

/** The element line whose quoted name is exactly `name` (or starts with it when `prefix`). */
export function lineFor(snap: string, name: string, prefix = false): string {
  const l = snap.split('\n').find((x) => x.startsWith('[') && (prefix ? x.includes(`"${name}`) : x.includes(`"${name}"`)));
  assert.ok(l, `no element line named "${name}" in:\n${snap}`);
  return l;
}
export const refIn = (line: string) => /^\[([^\]]+)\]/.exec(line)![1];

describe('mcp: widgets — every item has its own ref and acts like a click', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}, timeout = 60_000): Promise<Result> => {
    const r: any = await client.callTool({ name, arguments: args }, undefined, { timeout });
    const text = r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
    if (DUMP) console.log(`--- ${name} ${JSON.stringify(args)}\n${text}`);
    return { text, isError: !!r.isError };
  };
  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<string> => {
    const r = await call(name, args);
    assert.ok(!r.isError, `${name} failed: ${r.text}`);
    return r.text;
  };
  const snapshot = () => ok('browser_snapshot');
  const out = async () => {
    const r = await ok('browser_find', { query: '^(Order|Chosen|Did|Toggled|Opened|Starred|Deleted|Toolbar|Marked|Cell|Key|Shape)\\b', regex: true });
    return r;
  };
  const open = async (path: string) => {
    await ok('browser_navigate', { url: srv.origin + path });
    return snapshot();
  };

  before(async () => {
    srv = await startServer(widgetRoutes());
    if (!existsSync(MCP_BIN)) throw new Error(`${MCP_BIN} is missing: run node esbuild.mjs first`);
    const audit = mkdtempSync(join(tmpdir(), 'ba-widgets-audit-'));
    const args = [MCP_BIN, '--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`), '--audit-dir', audit, '--allow-confirm-actions', '--no-daemon'];
    client = new Client({ name: 'widgets-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  });
  after(async () => {
    await client?.close();
    await srv?.close();
  });

  it('sortable list: each item has a ref; dragging reorders up and down', async () => {
    const snap = await open('/sortable');
    const names = ['Apple', 'Banana', 'Cherry', 'Damson', 'Elderberry'];
    const refs = names.map((n) => refIn(lineFor(snap, n)));
    assert.equal(new Set(refs).size, 5, 'five distinct refs');
    assert.match(lineFor(snap, 'Cherry'), /3 of 5/);
    assert.doesNotMatch(snap, /"Apple Banana/, 'no element named after all items');
    await ok('browser_drag', { fromRef: refs[3], toRef: refs[0], position: 'before' });
    assert.match(await out(), /Order: Damson, Apple, Banana, Cherry, Elderberry/);
    const again = await snapshot();
    await ok('browser_drag', { fromRef: refIn(lineFor(again, 'Apple')), toRef: refIn(lineFor(again, 'Elderberry')), position: 'after' });
    assert.match(await out(), /Order: Damson, Banana, Cherry, Elderberry, Apple/);
  });

  it('autocomplete: each suggestion has a ref and clicking one chooses it', async () => {
    const snap = await open('/autocomplete');
    await ok('browser_type', { ref: refIn(lineFor(snap, 'City')), text: 'Par' });
    const s2 = await snapshot();
    const parma = lineFor(s2, 'Parma');
    lineFor(s2, 'Paris');
    lineFor(s2, 'Paraguay City');
    assert.match(parma, /2 of 3/);
    await ok('browser_click', { ref: refIn(parma) });
    assert.match(await out(), /Chosen: Parma/);
  });

  it('dropdown menu with a submenu: entries are items, the submenu opens and its entry acts', async () => {
    const snap = await open('/menu');
    await ok('browser_click', { ref: refIn(lineFor(snap, 'Actions')) });
    const s2 = await snapshot();
    const copy = lineFor(s2, 'Copy');
    const move = lineFor(s2, 'Move to');
    lineFor(s2, 'Rename');
    assert.doesNotMatch(move, /Archive/, 'hidden submenu entries do not feed the name');
    assert.doesNotMatch(s2, /"Copy Move/);
    assert.notEqual(refIn(copy), refIn(move));
    await ok('browser_click', { ref: refIn(move) });
    const s3 = await snapshot();
    await ok('browser_click', { ref: refIn(lineFor(s3, 'Archive')) });
    assert.match(await out(), /Did: archive/);
  });

  it('folder tree: folders and leaves, level and collapsed state; hidden children never in names', async () => {
    const snap = await open('/tree');
    const docs = lineFor(snap, 'Documents');
    assert.match(docs, /level=1/);
    assert.match(docs, /collapsed/);
    assert.doesNotMatch(snap, /Invoices|march\.pdf/, 'collapsed children are not shown');
    assert.match(lineFor(snap, 'readme.md'), /leaf/);
    await ok('browser_click', { ref: refIn(docs) });
    const s2 = await snapshot();
    assert.match(lineFor(s2, 'Documents'), /expanded/);
    const inv = lineFor(s2, 'Invoices');
    assert.match(inv, /level=2/);
    assert.match(inv, /collapsed/);
    assert.match(lineFor(s2, 'notes.txt'), /level=2.*leaf/);
    await ok('browser_click', { ref: refIn(lineFor(s2, 'notes.txt')) });
    assert.match(await out(), /Opened: notes\.txt/);
  });

  it('inbox rows and a toolbar: rows, their icon buttons and toolbar buttons each have a ref', async () => {
    const snap = await open('/inbox');
    const bob = lineFor(snap, 'Bob Lunch on Friday?');
    assert.match(bob, /2 of 3/);
    const lines = snap.split('\n');
    const at = lines.indexOf(bob);
    const star = lines.slice(at + 1).find((l) => /star/.test(l));
    assert.ok(star && star.startsWith('['), `a star button after Bob's row:\n${snap}`);
    await ok('browser_click', { ref: refIn(star!) });
    assert.match(await out(), /Starred: Bob/);
    await ok('browser_click', { ref: refIn(lineFor(snap, 'Carol Invoice 4411')) });
    assert.match(await out(), /Opened: Invoice 4411/);
    const fwd = lines.find((l) => /^\[\d+\].*forward/.test(l));
    assert.ok(fwd, `a forward toolbar button:\n${snap}`);
    assert.ok(lines.find((l) => /^\[\d+\].*reply/.test(l)), 'a reply toolbar button');
    await ok('browser_click', { ref: refIn(fwd!) });
    assert.match(await out(), /Toolbar: forward/);
  });

  it('a long list with a delegated listener whose rows hold links: rows and links each have a ref', async () => {
    const snap = await open('/mail');
    const row = lineFor(snap, 'Sender 12 Subject number 12');
    assert.match(row, /12 of 14/);
    assert.equal(snap.split('\n').filter((l) => /^\[\d+\] link "permalink"/.test(l)).length, 14);
    await ok('browser_click', { ref: refIn(row) });
    assert.match(await out(), /Opened: message 12/);
  });

  it('grid with CSS-drawn marks: the marks are readable and an empty cell can be marked', async () => {
    const snap = await open('/grid');
    const cells = snap.split('\n').filter((l) => /^\[\d+\]/.test(l) && /of 3x3/.test(l));
    assert.equal(cells.length, 9, `nine cells:\n${snap}`);
    assert.match(cells[5], /row=2 col=3 of 3x3/);
    assert.match(cells[0], /X/);
    assert.match(cells[2], /flag/);
    assert.match(cells[4], /X/);
    assert.doesNotMatch(cells[1], /X|flag/);
    await ok('browser_click', { ref: refIn(cells[1]) });
    assert.match(await out(), /Marked cell 2/);
    await ok('browser_click', { ref: refIn(cells[0]) });
    assert.match(await out(), /Cell 1 is taken/);
  });

  it('SVG: text glyphs are readable and name controls; shapes are described and clickable', async () => {
    const snap = await open('/svg');
    assert.match(snap, /Grade: B/);
    const two = lineFor(snap, '2');
    await ok('browser_click', { ref: refIn(two) });
    assert.match(await out(), /Key 2/);
    const circle = snap.split('\n').find((l) => /^\[\d+\].*red circle/.test(l));
    assert.ok(circle, `a red circle:\n${snap}`);
    assert.ok(snap.split('\n').find((l) => /^\[\d+\].*blue square/.test(l)), 'a blue square (a rect with equal sides)');
    await ok('browser_click', { ref: refIn(circle!) });
    assert.match(await out(), /Shape red/);
  });

  it('a page that calls alert() then confirm() while loading: navigate names the dialog at once, both are answered', async () => {
    // Navigate returns while the alert holds the page, names the dialog, and each answer lets the page go
    // on. Each call gets half the 30 s CDP timeout: one that waited for a call the dialog blocks (as
    // before) fails here; normal ones take well under a second.
    await ok('browser_navigate', { url: srv.origin + '/textarea' }); // the browser is up
    const quick = 15_000;
    const nav = await call('browser_navigate', { url: srv.origin + '/dialogs' }, quick);
    assert.ok(!nav.isError, nav.text);
    assert.doesNotMatch(nav.text, /TIMEOUT/);
    assert.match(nav.text, /still loading/);
    assert.match(nav.text, /alert <page-content id=(\w+)>Welcome!<\/page-content id=\1>/);
    assert.match(nav.text, /browser_handle_dialog/);
    const first = await call('browser_handle_dialog', { accept: true }, quick);
    assert.match(first.text, /confirm <page-content id=(\w+)>Continue\?<\/page-content id=\1>/);
    const second = await call('browser_handle_dialog', { accept: true }, quick);
    assert.ok(!second.isError, second.text);
    assert.doesNotMatch(second.text, /Dialog open/);
    assert.match(await ok('browser_find', { query: 'accepted' }), /accepted/);
  });

  it('long values: cut with a marker in the snapshot, whole in details and find', async () => {
    const snap = await open('/textarea');
    const notes = lineFor(snap, 'Notes');
    const rest = LONG_TEXT.length - 60;
    assert.ok(notes.includes(`(+${rest} chars)`), notes);
    assert.doesNotMatch(notes, /PELICAN/);
    const details = await ok('browser_element_details', { refs: [refIn(notes)] });
    assert.ok(details.includes(LONG_TEXT), details);
    const found = await ok('browser_find', { query: 'PELICAN' });
    assert.match(found, /1 match/);
    assert.ok(found.includes('PELICAN'), found);
  });
});
