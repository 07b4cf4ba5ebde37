// A user-task sweep of hard but benign pages (test/mcp/hardPages.ts), driven as a model drives them: through
// the real MCP server (the SDK's client over stdio, --no-daemon) and real headless Chromium, refs picked from
// the snapshot text by their visible labels, and each task checked by what the page achieved — what its
// loopback server received — never by our tool's own words. Where the model depends on what a result tells it
// (a validation error, a toast, a list that loads more), the test asserts that the result says it.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crossSite } from '../helpers/chromium';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';
import { FRAME_FORM, framesPage, HARD_PAGES } from './hardPages';
import { lineOf, modelDriver, recorder, ref, refIn, type Received } from './hardHarness';

describe('mcp: hard pages — a model\'s everyday tasks on ordinary hard pages', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let other: TestServer;
  let mcp: McpProcess;
  const received: Received[] = [];
  const { got, call, ok, snapshot, open } = modelDriver(() => mcp, received, () => srv);

  before(async () => {
    other = await startServer({ '/frame-form': FRAME_FORM });
    for (const [p, h] of Object.entries(recorder(received, () => other))) other.route(p, h);
    srv = await startServer(HARD_PAGES);
    for (const [p, h] of Object.entries(recorder(received, () => srv))) srv.route(p, h);
    srv.route('/frames', framesPage(other.origin, crossSite(other.origin)));
    srv.route('/search', (req, res) => {
      received.push({ kind: 'search', data: Object.fromEntries(new URL(req.url!, srv.origin).searchParams), origin: srv.origin });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Results</title><h1>Results</h1>');
    });
    srv.route('/stories', (req, res) => {
      const p = Number(new URL(req.url!, srv.origin).searchParams.get('page'));
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.from({ length: 10 }, (_, i) => `Story ${(p - 1) * 10 + i + 1}`))), 150);
    });
    mcp = await startMcp([...HEADLESS_ARGS, '--allow-confirm-actions']);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
    await other?.close();
  });

  it('a React-style controlled form: typed text and fill_form both reach the app state', async () => {
    let snap = await open('/react');
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Full name'), text: 'Ada Lovelace' });
    const age = await ok('browser_type', { ref: ref(snap, 'textbox', 'Age'), text: '3x6' });
    assert.match(age, /the field now shows "36"/, 'the result says what the app made of the text');
    await ok('browser_click', { ref: ref(snap, 'button', 'Save profile') });
    assert.deepEqual(await got('profile'), { name: 'Ada Lovelace', age: '36', bio: '' });
    snap = await snapshot();
    await ok('browser_fill_form', { fields: [{ ref: ref(snap, 'textbox', 'Full name'), value: 'Grace Hopper' }, { ref: ref(snap, 'textbox', 'Age'), value: '85' }, { ref: ref(snap, 'textbox', 'Short bio'), value: 'Compilers.\nCOBOL.' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Save profile') });
    assert.deepEqual(await got('profile'), { name: 'Grace Hopper', age: '85', bio: 'Compilers.\nCOBOL.' });
  });

  it('input masks: a phone mask reformats typed digits; a keydown-only date mask gets real keys', async () => {
    const snap = await open('/masks');
    const phone = await ok('browser_type', { ref: ref(snap, 'textbox', 'Phone'), text: '5551234567' });
    assert.match(phone, /\(555\) 123-4567/, phone);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Date of birth'), text: '12/25/1990' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Continue') });
    assert.deepEqual(await got('submit'), { phone: '(555) 123-4567', dob: '12/25/1990' });
  });

  it('native date, time, range and color inputs: set by type and by fill_form, posted with the form', async () => {
    let snap = await open('/native');
    await ok('browser_type', { ref: ref(snap, 'datepicker|textbox', 'Date'), text: '2026-12-24' });
    await ok('browser_type', { ref: ref(snap, 'timepicker|textbox', 'Time'), text: '19:30' });
    await ok('browser_type', { ref: ref(snap, 'slider', 'Guests'), text: '4' });
    await ok('browser_type', { ref: ref(snap, 'colorpicker|textbox', 'Napkin colour'), text: '#aa0000' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Book') });
    assert.deepEqual(await got('submit'), { date: '2026-12-24', time: '19:30', guests: '4', colour: '#aa0000' });
    snap = await open('/native');
    await ok('browser_fill_form', { fields: [{ ref: ref(snap, 'datepicker|textbox', 'Date'), value: '2027-01-02' }, { ref: ref(snap, 'timepicker|textbox', 'Time'), value: '08:15' }, { ref: ref(snap, 'slider', 'Guests'), value: '12' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Book') });
    assert.deepEqual(await got('submit'), { date: '2027-01-02', time: '08:15', guests: '12', colour: '#ffffff' });
  });

  it('a custom calendar: open it, page to the next month, click the day', async () => {
    const snap = await open('/calendar');
    await ok('browser_click', { ref: ref(snap, 'textbox', 'Check-in') });
    let cal = await snapshot();
    assert.match(cal, /November 2026/);
    await ok('browser_click', { ref: ref(cal, '\\w+', /^(Next month|›)$/) });
    cal = await snapshot();
    assert.match(cal, /December 2026/);
    await ok('browser_click', { ref: ref(cal, '\\w+', '24') });
    await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Search hotels') });
    assert.equal(await got('checkin'), '2026-12-24');
  });

  it('custom selects whose options open in a portal at the end of <body>', async () => {
    const snap = await open('/combobox');
    const opened = await ok('browser_click', { ref: ref(snap, '\\w+', 'Choose a country') });
    assert.match(opened, /Germany/, 'the click result shows the options that appeared');
    await ok('browser_click', { ref: ref(await snapshot(), '\\w+', 'Germany') });
    let s2 = await snapshot();
    await ok('browser_click', { ref: ref(s2, 'combobox', 'Delivery speed') });
    s2 = await snapshot();
    await ok('browser_click', { ref: ref(s2, 'option', 'Express') });
    await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Continue to payment') });
    assert.deepEqual(await got('shipping'), { country: 'Germany', speed: 'Express' });
    // A model that reaches for select_option / fill_form on the ARIA one: it is opened and the option clicked.
    s2 = await snapshot();
    await ok('browser_select_option', { ref: ref(s2, 'combobox', 'Delivery speed'), values: ['Overnight'] });
    await ok('browser_click', { ref: ref(s2, 'button', 'Continue to payment') });
    assert.deepEqual(await got('shipping'), { country: 'Germany', speed: 'Overnight' });
    await ok('browser_fill_form', { fields: [{ ref: ref(s2, 'combobox', 'Delivery speed'), value: 'Standard' }] });
    await ok('browser_click', { ref: ref(s2, 'button', 'Continue to payment') });
    assert.deepEqual(await got('shipping'), { country: 'Germany', speed: 'Standard' });
    const wrong = await call('browser_select_option', { ref: ref(s2, 'combobox', 'Delivery speed'), values: ['Teleport'] });
    assert.ok(wrong.isError);
    assert.match(wrong.text, /TARGET_NOT_FOUND[\s\S]*"Express"/, 'the error lists the options there are');
  });

  it('a native <select multiple>: several options by label, posted with the form', async () => {
    const snap = await open('/multi');
    await ok('browser_select_option', { ref: ref(snap, 'listbox', 'Toppings'), values: ['Mushrooms', 'Olives', 'Onions'] });
    await ok('browser_fill_form', { fields: [{ ref: ref(snap, 'combobox', 'Size'), value: 'Large' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Order') });
    const form = await got('submit');
    assert.equal(form.size, 'Large');
    // URLSearchParams keeps the last of repeated keys: the page posted toppings=mush&toppings=oli&toppings=oni.
    assert.equal(form.toppings, 'oni');
  });

  it('a contenteditable rich editor: replace the draft, select all, type over it, use the toolbar', async () => {
    const snap = await open('/editor');
    const body = ref(snap, 'textbox', 'Post body');
    await ok('browser_type', { ref: body, text: 'First version' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Publish') });
    assert.equal((await got('post')).text, 'First version');
    await ok('browser_click', { ref: body });
    await ok('browser_press_key', { key: 'Control+A' });
    await ok('browser_type', { text: 'Final words' });
    await ok('browser_press_key', { key: 'Control+A' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Bold') });
    await ok('browser_click', { ref: ref(snap, 'button', 'Publish') });
    const post = await got('post');
    assert.equal(post.text, 'Final words');
    assert.match(post.html, /<b>Final words<\/b>/);
  });

  it('a CSS :hover menu two levels deep: hover the top item and the submenu, click the entry', async () => {
    const snap = await open('/hovermenu');
    const top = await ok('browser_hover', { ref: ref(snap, '\\w+', 'Products') });
    assert.match(top, /Software/, 'the hover result shows the submenu that opened');
    const sub = await ok('browser_hover', { ref: ref(await snapshot(), '\\w+', 'Software') });
    assert.match(sub, /Code editors/);
    await ok('browser_click', { ref: ref(await snapshot(), 'link', 'Code editors') });
    assert.equal(await got('category'), 'editors');
    // The same with a script-driven menu (mouseenter/mouseleave, no CSS :hover).
    const acct = await ok('browser_hover', { ref: ref(await snapshot(), '\\w+', 'My account') });
    assert.match(acct, /Sign out/);
    await ok('browser_click', { ref: ref(await snapshot(), '\\w+', 'Sign out') });
    assert.equal(await got('account'), 'logout');
  });

  it('a modal with a focus trap and a form inside', async () => {
    const snap = await open('/modal');
    const opened = await ok('browser_click', { ref: ref(snap, 'button', 'Subscribe to the newsletter') });
    assert.match(opened, /Your email/);
    const dlg = await snapshot();
    await ok('browser_type', { ref: ref(dlg, 'textbox', 'Your email'), text: 'ada@example.com' });
    await ok('browser_select_option', { ref: ref(dlg, 'combobox', 'How often'), values: ['Monthly'] });
    await ok('browser_click', { ref: ref(dlg, 'checkbox', 'I agree to receive emails') });
    await ok('browser_click', { ref: ref(dlg, 'button', 'Confirm subscription') });
    assert.deepEqual(await got('subscribe'), { email: 'ada@example.com', freq: 'Monthly', gdpr: 'on' });
  });

  it('a wizard with client-side validation: each error the page shows is in the click result', async () => {
    let snap = await open('/wizard');
    const empty = await ok('browser_click', { ref: ref(snap, 'button', 'Next') });
    assert.match(empty, /Email is required\./);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Email'), text: 'ada@example' });
    const bad = await ok('browser_click', { ref: ref(snap, 'button', 'Next') });
    assert.match(bad, /Enter a valid email address/);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Email'), text: 'ada@example.com' });
    const step2 = await ok('browser_click', { ref: ref(snap, 'button', 'Next') });
    assert.match(step2, /Step 2 of 3|Choose a plan/);
    snap = await snapshot();
    const noPlan = await ok('browser_click', { ref: ref(snap, 'button', 'Next') });
    assert.match(noPlan, /Please choose a plan to continue\./);
    await ok('browser_click', { ref: ref(snap, '\\w+', /^Pro/) });
    await ok('browser_click', { ref: ref(snap, 'button', 'Next') });
    await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Create account') });
    assert.deepEqual(await got('signup'), { email: 'ada@example.com', plan: 'pro' });
  });

  it('a virtualized list of 10,000 rows: the snapshot says the list scrolls; scrolling it brings the row', async () => {
    // Only the rows in view exist: find cannot see row 7421 until the list is scrolled there. The snapshot must
    // say the list scrolls and how far, and scrolling by a row's ref must say what scrolled, and where it is.
    const snap = await open('/virtual');
    assert.doesNotMatch(snap, /Customer 7421/);
    const area = /^\[scrollable list "Customers", at y=0 of (\d+) px\]$/m.exec(snap);
    assert.ok(area, `the snapshot says the list scrolls:\n${snap}`);
    assert.match(await ok('browser_find', { query: 'Customer 7421' }), /No element or text matches/);
    // Rows are 32 px apart (the model reads it off the snapshot's rows or browser_element_details).
    const scrolled = await ok('browser_scroll', { ref: ref(snap, '\\w+', 'Customer 0003'), direction: 'down', amount: 7421 * 32 });
    assert.match(scrolled, /Scrolled the scrollable list "Customers" around clickable "Customer 0003" down by 237472 px; it is now at y=237472 of \d+/);
    assert.match(scrolled, /Customer 7421/, 'the delta shows the rows that came into view');
    const now = await snapshot();
    assert.match(now, /^\[scrollable list "Customers", at y=237472 of \d+ px\]$/m);
    assert.doesNotMatch(now, /covered-by/, 'rows scrolled out of the list\'s view are not "covered" by what is there');
    const lines = now.split('\n');
    const open7421 = lines.slice(lines.findIndex((l) => l.includes('"Customer 7421"'))).find((l) => /button "Open"/.test(l))!;
    await ok('browser_click', { ref: refIn(open7421) });
    assert.equal(await got('customer'), 'Customer 7421');
  });

  it('infinite scroll: each scroll result names the stories that loaded, the 35th is reached', async () => {
    await open('/infinite');
    let text = await snapshot();
    for (let i = 0; i < 20 && !/Story 35\b/.test(text); i++) text = await ok('browser_scroll', { direction: 'down' });
    assert.match(text, /Story 35\b/);
    await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Read Story 35') });
    assert.equal(await got('story'), 'Read Story 35');
  });

  it('HTML5 drag and drop on a kanban board: cards and columns can be named by their labels', async () => {
    const snap = await open('/kanban');
    await ok('browser_drag', { fromRef: ref(snap, '\\w+', 'Write report'), toRef: ref(snap, '\\w+', /^Done/) });
    assert.deepEqual(await got('board'), { todo: ['Fix login bug'], doing: [], done: ['Plan sprint', 'Write report'] });
  });

  it('a pointer-event sortable list with pointer capture and an activation distance', async () => {
    const snap = await open('/pointersort');
    await ok('browser_drag', { fromRef: ref(snap, '\\w+', /Drag Outro/), toRef: ref(snap, '\\w+', /Drag Intro/), position: 'before' });
    assert.deepEqual(await got('playlist'), ['Outro', 'Intro', 'Verse', 'Chorus', 'Bridge']);
  });

  it('sliders: a custom ARIA slider by keyboard and by drag; a native range by keyboard', async () => {
    const snap = await open('/slider');
    const vol = ref(snap, 'slider', 'Volume');
    await ok('browser_click', { ref: vol });
    await ok('browser_press_key', { key: 'ArrowRight', repeat: 5 });
    const now = await snapshot();
    assert.match(lineOf(now, 'slider', 'Volume'), /value=55/);
    await ok('browser_click', { ref: ref(snap, 'button', 'Apply') });
    assert.deepEqual(await got('sound'), { volume: 55, bass: 5 });
    // By drag, as a model that knows the scale (3 px a step, from browser_element_details) would: 30 steps
    // left of the thumb's centre, an offset from the thumb's own top-left corner.
    await ok('browser_drag', { fromRef: vol, toRef: vol, position: { x: 12 - 90, y: 12 } });
    await ok('browser_click', { ref: ref(snap, 'slider', 'Bass') });
    await ok('browser_press_key', { key: 'ArrowLeft', repeat: 2 });
    await ok('browser_click', { ref: ref(snap, 'button', 'Apply') });
    assert.deepEqual(await got('sound'), { volume: 25, bass: 3 });
  });

  it('hidden file inputs behind a styled button and a label: the chooser is reported and filled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ba-hard-upload-'));
    const photo = join(dir, 'photo.txt');
    const cv = join(dir, 'cv.txt');
    writeFileSync(photo, 'a picture');
    writeFileSync(cv, 'my career');
    const snap = await open('/upload');
    const chooser = await ok('browser_click', { ref: ref(snap, 'button', 'Upload photo') });
    assert.match(chooser, /browser_upload_file/);
    await ok('browser_upload_file', { paths: [photo] });
    assert.deepEqual(await got('upload'), { field: 'photo', name: 'photo.txt', text: 'a picture' });
    await ok('browser_upload_file', { ref: ref(snap, 'file|button|clickable', 'Attach CV'), paths: [cv] });
    assert.deepEqual(await got('upload'), { field: 'cv', name: 'cv.txt', text: 'my career' });
  });

  it('forms without a submit button are sent by pressing Enter', async () => {
    let snap = await open('/enter');
    const searched = await ok('browser_type', { ref: ref(snap, 'textbox', 'Search books'), text: 'dune', submit: true });
    assert.deepEqual(await got('search'), { q: 'dune' });
    assert.match(searched, /Results/);
    snap = await open('/enter');
    await ok('browser_type', { ref: ref(snap, 'textbox', 'User'), text: 'reader7' });
    await ok('browser_type', { ref: ref(snap, 'textbox', 'PIN'), text: '4321' });
    await ok('browser_press_key', { key: 'Enter' });
    assert.deepEqual(await got('submit'), { user: 'reader7', pin: '4321' });
  });

  it('forms in a same-origin, a cross-origin (second port) and a cross-site iframe', async () => {
    const snap = await open('/frames');
    const frames = [...snap.matchAll(/^\[frame (f\d+)\]/gm)].map((m) => m[1]);
    assert.equal(frames.length, 3, snap);
    for (const [n, f] of frames.entries()) {
      const part = snap.slice(snap.indexOf(`[frame ${f}]`), snap.indexOf(`[/frame ${f}]`));
      await ok('browser_fill_form', { fields: [{ ref: ref(part, 'textbox', 'Card holder'), value: `Holder ${n}` }, { ref: ref(part, 'textbox', 'Amount'), value: `${n + 1}0` }] });
      await ok('browser_click', { ref: ref(part, 'button', 'Pay now') });
      const at = received.length;
      assert.deepEqual(await got('submit'), { holder: `Holder ${n}`, amount: `${n + 1}0` });
      assert.equal(received[at - 1]?.origin ?? received.at(-1)!.origin, n === 0 ? srv.origin : other.origin);
    }
  });

  it('a form inside an open shadow root, one field in a nested shadow root', async () => {
    const snap = await open('/shadow');
    await ok('browser_fill_form', { fields: [{ ref: ref(snap, 'textbox', 'First name'), value: 'Ada' }, { ref: ref(snap, 'combobox', 'Topic'), value: 'Offers' }, { ref: ref(snap, 'textbox', 'Postcode'), value: 'EC1A 1BB' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Join') });
    assert.deepEqual(await got('shadow'), { first: 'Ada', topic: 'Offers', zip: 'EC1A 1BB' });
  });

  it('a button enabled only some time after the terms are accepted: the click waits for it', async () => {
    const snap = await open('/terms');
    assert.match(lineOf(snap, 'button', 'Create account'), /disabled/);
    await ok('browser_click', { ref: ref(snap, 'checkbox', 'I accept the terms and conditions') });
    await ok('browser_click', { ref: ref(snap, 'button', 'Create account') });
    assert.equal(await got('register'), 'created');
  });

  it('toasts: the action result names a notification that appears and goes away', async () => {
    const snap = await open('/toast');
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Display name'), text: 'Samantha' });
    const saved = await ok('browser_click', { ref: ref(snap, 'button', 'Save changes') });
    assert.equal(await got('save'), 'Samantha');
    assert.match(saved, /Your changes were saved/);
    // This one appears 150 ms after the click, when the click has long settled, and is gone 1.5 s later:
    // the click's result may or may not catch it, the model's next call is told.
    const copied = await ok('browser_click', { ref: ref(snap, 'button', 'Copy profile link') });
    await new Promise((r) => setTimeout(r, 2000)); // the model reads and thinks; the toast comes and goes
    const next = await snapshot();
    assert.match(copied + next, /Link copied to clipboard/);
    assert.doesNotMatch(await snapshot(), /Link copied/, 'told once');
  });

  it('a fixed header over the top of the page: a button scrolled past is still clicked', async () => {
    const snap = await open('/sticky');
    await ok('browser_scroll', { direction: 'down', amount: 3000 });
    await ok('browser_click', { ref: ref(snap, 'button', 'Add to cart') });
    assert.equal(await got('cart'), 'espresso');
  });

  it('a search box that opens a search dialog with its own input: the text goes where the page put the caret', async () => {
    const snap = await open('/docsearch');
    const typed = await ok('browser_type', { ref: ref(snap, 'textbox', 'Search the docs'), text: 'drag and drop', submit: true });
    assert.equal(await got('docsearch'), 'drag and drop');
    assert.match(typed, /Search query/, 'the result names the field that took the text');
  });

  it('a data grid edited in place: double-click the cell, type, Enter', async () => {
    const snap = await open('/grid');
    const opened = await ok('browser_click', { ref: ref(snap, '\\w+', '80'), doubleClick: true });
    assert.match(opened, /textbox "Edit nuts"/, 'the result shows the editor that opened');
    await ok('browser_type', { ref: ref(await snapshot(), 'textbox', 'Edit nuts'), text: '95', submit: true });
    assert.deepEqual(await got('stock'), { nuts: '95' });
  });

  it('a rich editor in a design-mode iframe (TinyMCE, CKEditor 4)', async () => {
    const snap = await open('/compose');
    const part = snap.slice(snap.indexOf('[frame '));
    await ok('browser_type', { ref: ref(part, 'textbox', /.*/), text: 'Hello from the agent' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Send') });
    assert.equal(await got('message'), 'Hello from the agent');
  });

  it('a searchable select (react-select): type to filter, pick by keyboard or by select_option', async () => {
    let snap = await open('/searchselect');
    await ok('browser_type', { ref: ref(snap, 'combobox', 'Assignee'), text: 'gr' });
    await ok('browser_press_key', { key: 'Enter' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Invite') });
    assert.equal(await got('invite'), 'Grace Hopper');
    snap = await snapshot();
    await ok('browser_select_option', { ref: ref(snap, 'combobox', 'Assignee'), values: ['Barbara Liskov'] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Invite') });
    assert.equal(await got('invite'), 'Barbara Liskov');
  });

  it('a form the browser validates (required, type=email, pattern): the result says why nothing was sent', async () => {
    const snap = await open('/validate');
    const empty = await ok('browser_click', { ref: ref(snap, 'button', 'Send message') });
    assert.match(empty, /not sent/i);
    assert.match(empty, /Your email.*fill (in|out) this field/i);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Your email'), text: 'ada@example.com' });
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Order number'), text: 'ab12' });
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Message'), text: 'Where is my parcel?' });
    const bad = await ok('browser_click', { ref: ref(snap, 'button', 'Send message') });
    assert.match(bad, /Order number.*Two letters and four digits/);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Order number'), text: 'AB1234', submit: true });
    assert.deepEqual(await got('submit'), { email: 'ada@example.com', order: 'AB1234', msg: 'Where is my parcel?' });
  });
});
