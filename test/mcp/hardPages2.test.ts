// Hard pages sweep, round 2 (test/mcp/hardPages2.ts): everyday tasks on pages that trip agents up, driven as a
// model drives them — through the real MCP server (the SDK's client over stdio, --no-daemon) and real headless
// Chromium, refs picked from the snapshot text by their visible labels, each task checked by what the page's
// loopback server received. Where the model depends on what a result tells it (what covers a button, why it is
// disabled, that a field cut the text, which tab opened), the test asserts that the result says it.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';
import { lineOf, modelDriver, recorder, ref, refIn, type Received } from './hardHarness';
import { consentFramePage, HARD_PAGES_2, splitCheckout } from './hardPages2';

describe('mcp: hard pages, round 2 — consent walls, disabled buttons, editors, widgets, keys, tabs', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let other: TestServer;
  let mcp: McpProcess;
  const received: Received[] = [];
  const { got, call, ok, snapshot, open } = modelDriver(() => mcp, received, () => srv);

  before(async () => {
    other = await startServer(HARD_PAGES_2);
    for (const [p, h] of Object.entries(recorder(received, () => other))) other.route(p, h);
    srv = await startServer(HARD_PAGES_2);
    for (const [p, h] of Object.entries(recorder(received, () => srv))) srv.route(p, h);
    srv.route('/checkout', splitCheckout(other.origin));
    srv.route('/consent-frame', consentFramePage(other.origin));
    srv.route('/invoice.csv', (_req, res) => res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="invoices-2026.csv"' }).end('id,total\nINV-77,310\n'));
    mcp = await startMcp([...HEADLESS_ARGS, '--allow-confirm-actions', '--downloads-dir', mkdtempSync(join(tmpdir(), 'ba-hard2-dl-'))]);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
    await other?.close();
  });

  it('a cookie consent wall over the page: the click names it and the button that dismisses it', async () => {
    const snap = await open('/consent');
    const covered = await call('browser_click', { ref: ref(snap, 'button', 'Subscribe') });
    assert.ok(covered.isError, covered.text);
    assert.match(covered.text, /COVERED/);
    assert.match(covered.text, /Cookie consent|We use cookies/, 'names what covers the button');
    const accept = ref(snap, 'button', 'Accept all');
    assert.match(covered.text, new RegExp(`\\[${accept}\\] button "Accept all"|"Accept all" \\[${accept}\\]|Accept all.*${accept}`), 'names the button that dismisses it, with its ref');
    await ok('browser_click', { ref: accept });
    assert.equal(await got('consent'), 'accept');
    await ok('browser_click', { ref: ref(snap, 'button', 'Subscribe') });
    assert.equal(await got('subscribe'), 'yes');
  });

  it('a consent banner in a cross-origin iframe over the page: the error names the frame\'s buttons by ref', async () => {
    const snap = await open('/consent-frame');
    const covered = await call('browser_click', { ref: ref(snap, 'button', 'Save recipe') });
    assert.ok(covered.isError, covered.text);
    const frame = snap.slice(snap.indexOf('[frame '));
    const reject = ref(frame, 'button', 'Reject all');
    assert.match(covered.text, new RegExp(`\\[${reject}\\] button "Reject all"`), covered.text);
    await ok('browser_click', { ref: reject });
    assert.equal(await got('consent'), 'no');
    await ok('browser_click', { ref: ref(snap, 'button', 'Save recipe') });
    assert.equal(await got('save'), 'lentil soup');
  });

  it('a fixed bottom bar over the lower half of the last button: the click lands on the part that shows', async () => {
    const snap = await open('/bottom-bar');
    await ok('browser_click', { ref: ref(snap, 'button', 'I have read the terms') });
    assert.equal(await got('terms'), 'read');
  });

  it('a button disabled until the email is valid: the error says disabled, and why in the page\'s words', async () => {
    const snap = await open('/disabled');
    const send = ref(snap, 'button', 'Send reset link');
    const r = await call('browser_click', { ref: send });
    assert.ok(r.isError, r.text);
    assert.match(r.text, /disabled/);
    assert.match(r.text, /Enter a valid email address to continue/, 'the page\'s reason is in the error');
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Email'), text: 'ada@example.com' });
    await ok('browser_click', { ref: send });
    assert.equal(await got('reset'), 'ada@example.com');
    // A page that gives no reason: the form's fields that are not valid yet are named.
    const join = await call('browser_click', { ref: ref(snap, 'button', 'Join newsletter') });
    assert.ok(join.isError, join.text);
    assert.match(join.text, /disabled[\s\S]*Newsletter email \(required, empty\)/);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Newsletter email'), text: 'ada@example.com' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Join newsletter') });
    assert.equal(await got('newsletter'), 'ada@example.com');
  });

  it('a cart drawer that slides in: its button is clicked while it moves into place', async () => {
    const snap = await open('/drawer');
    // Before it opens the drawer sits off-screen: a click must say so, not click whatever is there.
    const early = await call('browser_click', { ref: ref(snap, 'button', 'Checkout') });
    assert.ok(early.isError, early.text);
    assert.match(early.text, /off-screen|outside|not visible/);
    await ok('browser_click', { ref: ref(snap, 'button', 'Add to cart') });
    await ok('browser_click', { ref: ref(snap, 'button', 'Checkout') });
    assert.equal(await got('checkout'), '1 × Running shoes');
  });

  it('datetime-local, month, week and range: set by type and fill_form, with input and change fired', async () => {
    let snap = await open('/datetime');
    const field = (name: string) => ref(snap, '\\w+', name);
    await ok('browser_type', { ref: field('Start'), text: '2026-12-24T18:30' });
    await ok('browser_type', { ref: field('Billing month'), text: '2027-01' });
    await ok('browser_type', { ref: field('Sprint week'), text: '2026-W52' });
    await ok('browser_type', { ref: field('Call length (minutes)'), text: '90' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Schedule') });
    const events = await got('events');
    assert.deepEqual(await got('submit'), { start: '2026-12-24T18:30', month: '2027-01', week: '2026-W52', len: '90' });
    for (const k of ['start', 'month', 'week', 'len']) assert.deepEqual(events[k]?.sort(), ['change', 'input'], `${k}: ${JSON.stringify(events)}`);
    snap = await open('/datetime');
    await ok('browser_fill_form', { fields: [{ ref: field('Start'), value: '2027-03-01T09:00' }, { ref: field('Billing month'), value: '2027-02' }, { ref: field('Sprint week'), value: '2027-W09' }, { ref: field('Call length (minutes)'), value: '45' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Schedule') });
    await got('events');
    assert.deepEqual(await got('submit'), { start: '2027-03-01T09:00', month: '2027-02', week: '2027-W09', len: '45' });
    // A value the field cannot take is refused with the format it wants, not silently left empty.
    snap = await open('/datetime');
    const bad = await call('browser_type', { ref: field('Sprint week'), text: 'next week' });
    assert.ok(bad.isError, bad.text);
    assert.match(bad.text, /YYYY-Www|2026-W\d\d/);
  });

  it('an editor that owns its model (beforeinput only): replace the draft, append a line', async () => {
    const snap = await open('/model-editor');
    const notes = ref(snap, 'textbox', 'Notes');
    await ok('browser_type', { ref: notes, text: 'Agenda: budget' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Save note') });
    assert.equal(await got('note'), 'Agenda: budget');
    // A parameter the tool does not have is refused by name, never dropped (this one would have replaced the draft).
    const guessed = await call('browser_type', { ref: notes, text: '\nOwner: Ada', append: true });
    assert.ok(guessed.isError, guessed.text);
    assert.match(guessed.text, /INVALID_INPUT[\s\S]*append[\s\S]*clear/);
    await ok('browser_type', { ref: notes, text: '\nOwner: Ada', clear: false });
    await ok('browser_click', { ref: ref(snap, 'button', 'Save note') });
    assert.equal(await got('note'), 'Agenda: budget\nOwner: Ada');
  });

  it('several lines into a plain contenteditable; a read-only date field that opens a picker', async () => {
    const snap = await open('/compose');
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Message'), text: 'Hi Ada,\nSee you on Thursday.\nGrace' });
    const date = await call('browser_type', { ref: ref(snap, 'textbox', 'Send on'), text: '2026-12-24' });
    assert.ok(date.isError, date.text);
    assert.match(date.text, /read-only[\s\S]*(opened|changed the page)/, 'the error says the click opened something to use instead');
    await ok('browser_click', { ref: ref(await snapshot(), 'button', '24') });
    await ok('browser_click', { ref: ref(snap, 'button', 'Send') });
    assert.deepEqual(await got('message'), { body: 'Hi Ada,\nSee you on Thursday.\nGrace', when: '2026-12-24' });
  });

  it('a number field, a custom spinbutton and a switch that is a hidden checkbox, by fill_form', async () => {
    const snap = await open('/quantities');
    const bad = await call('browser_type', { ref: ref(snap, 'spinbutton|textbox', 'Coffee beans (bags)'), text: 'three' });
    assert.match(bad.text, /it is a number field/, 'says why the field is empty');
    await ok('browser_fill_form', { fields: [{ ref: ref(snap, 'spinbutton|textbox', 'Coffee beans (bags)'), value: '3' }, { ref: ref(snap, 'spinbutton', 'Filters'), value: '5' }, { ref: ref(snap, 'switch|checkbox', 'Gift wrap'), value: 'true' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Update cart') });
    assert.deepEqual(await got('submit'), { beans: '3', filters: '5', gift: 'on' });
    // A value off its range is refused with the range, before any key is pressed.
    const far = await call('browser_type', { ref: ref(await open('/quantities'), 'spinbutton', 'Filters'), text: '12' });
    assert.ok(far.isError, far.text);
    assert.match(far.text, /between 1 and 9/);
  });

  it('maxlength and reformatting masks: the result says what the field kept', async () => {
    const snap = await open('/limits');
    const long = 'Happy birthday! Wishing you a wonderful year ahead.';
    const msg = await ok('browser_type', { ref: ref(snap, 'textbox', 'Gift message'), text: long });
    assert.match(msg, /maxlength|40 characters/i, 'the result says the field cut the text');
    assert.match(msg, /Happy birthday! Wishing you a wonderful/);
    const card = await ok('browser_type', { ref: ref(snap, 'textbox', 'Card number'), text: '4242424242424242' });
    assert.match(card, /4242 4242 4242 4242/);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Expiry'), text: '0929' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Pay') });
    assert.deepEqual(await got('submit'), { msg: long.slice(0, 40), card: '4242 4242 4242 4242', exp: '09 / 29' });
  });

  it('a select with <optgroup>s sharing a label: the snapshot shows the groups, the group picks the option', async () => {
    const snap = await open('/optgroup');
    const office = ref(snap, 'combobox', 'Office');
    assert.match(lineOf(snap, 'combobox', 'Office'), /options=\[Pick one\|United States › Springfield\|United States › Portland\|Australia › Springfield\|Australia › Sydney\]/);
    const amb = await call('browser_select_option', { ref: office, values: ['Springfield'] });
    assert.ok(amb.isError, `two options are labelled Springfield: ${amb.text}`);
    assert.match(amb.text, /United States[\s\S]*Australia|Australia[\s\S]*United States/, amb.text);
    const picked = await ok('browser_select_option', { ref: office, values: ['Australia › Springfield'] });
    // The value is said once, by the action's own line (the delta does not repeat it).
    assert.match(picked, /^Selected "Australia › Springfield" in combobox "Office"\.$/);
    await ok('browser_click', { ref: ref(snap, 'button', 'Save') });
    assert.deepEqual(await got('submit'), { office: 'au-spr' });
  });

  it('an ARIA listbox with aria-multiselectable: select_option picks several, fill_form too', async () => {
    const snap = await open('/aria-multi');
    await ok('browser_select_option', { ref: ref(snap, 'listbox', 'Topics'), values: ['Science', 'Travel'] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Save interests') });
    assert.deepEqual(await got('interests'), ['Science', 'Travel']);
    const now = await snapshot();
    assert.match(lineOf(now, 'option', 'Science'), /selected/);
  });

  it('a listbox where a click selects one row and Control+click adds: select_option picks several', async () => {
    const snap = await open('/ctrl-list');
    await ok('browser_select_option', { ref: ref(snap, 'listbox', 'Files'), values: ['notes.txt', 'plan.pdf'] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Delete selected') });
    assert.deepEqual(await got('delete'), ['notes.txt', 'plan.pdf']);
  });

  it('role=switch toggles and a roving radio group: fill_form sets them, arrow keys move the choice', async () => {
    let snap = await open('/switches');
    assert.match(lineOf(snap, 'switch', 'Email notifications'), /checked/);
    await ok('browser_fill_form', { fields: [{ ref: ref(snap, 'switch', 'Email notifications'), value: 'false' }, { ref: ref(snap, 'switch', 'Dark mode'), value: 'true' }, { ref: ref(snap, 'radio', 'Large'), value: 'true' }] });
    await ok('browser_click', { ref: ref(snap, 'button', 'Save preferences') });
    assert.deepEqual(await got('prefs'), { email: 'false', dark: 'true', size: 'Large' });
    snap = await snapshot();
    await ok('browser_click', { ref: ref(snap, 'radio', 'Small') });
    const moved = await ok('browser_press_key', { key: 'ArrowRight' });
    assert.match(moved, /Medium/, 'the key result shows the choice moved');
    await ok('browser_click', { ref: ref(snap, 'button', 'Save preferences') });
    assert.deepEqual(await got('prefs'), { email: 'false', dark: 'true', size: 'Medium' });
  });

  it('a native <dialog> opened with showModal: outside is inert, the error says so; Escape closes it', async () => {
    const snap = await open('/dialog');
    const opened = await ok('browser_click', { ref: ref(snap, 'button', 'Delete') });
    assert.match(opened, /Delete report\.pdf\?/);
    const blocked = await call('browser_click', { ref: ref(snap, 'button', 'Help') });
    assert.ok(blocked.isError, blocked.text);
    assert.match(blocked.text, /modal|dialog/i);
    assert.match(blocked.text, /Delete report\.pdf\?/, 'names the dialog that is open');
    assert.match(blocked.text, /Escape|Cancel/, 'says how to close it');
    const esc = await ok('browser_press_key', { key: 'Escape' });
    assert.equal(await got('dialog'), 'escape');
    assert.doesNotMatch(esc, /^\s*\[[^\]]+\] button "Delete file"/m);
    await ok('browser_click', { ref: ref(snap, 'button', 'Delete') });
    await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Delete file') });
    assert.equal(await got('dialog'), 'delete');
  });

  it('tabs and <details>: the snapshot says what is hidden behind them; opening shows it', async () => {
    const snap = await open('/disclosure');
    assert.match(lineOf(snap, 'tab', 'Description'), /\bselected\b/);
    assert.doesNotMatch(lineOf(snap, 'tab', 'Specifications'), /\bselected\b/, 'only the tab shown is marked selected');
    assert.match(lineOf(snap, '\\w+', 'What is the return policy?'), /collapsed/);
    const specs = await ok('browser_click', { ref: ref(snap, 'tab', 'Specifications') });
    assert.match(specs, /Weight: 1\.2 kg/);
    const faq = await ok('browser_click', { ref: ref(snap, '\\w+', 'What is the return policy?') });
    assert.match(faq, /Returns are free within 60 days/);
    // Text behind a closed control is not shown, but find must not say the page lacks it: it names the control.
    const found = await ok('browser_find', { query: 'water resistant' });
    assert.match(found, /It is water resistant, not waterproof\. — behind \[\d+\] button "Is it waterproof\?"/, found);
    const reviews = await ok('browser_find', { query: '212 reviews' });
    assert.match(reviews, /behind \[\d+\] tab "Reviews"/, reviews);
  });

  it('one fill_form across the page, an open shadow root and a cross-origin card frame', async () => {
    const snap = await open('/checkout');
    const frame = snap.slice(snap.indexOf('[frame '));
    await ok('browser_fill_form', {
      fields: [
        { ref: ref(snap, 'textbox', 'Name on card'), value: 'Ada Lovelace' },
        { ref: ref(snap, 'textbox', 'Street'), value: '12 Rue de Rivoli' },
        { ref: ref(snap, 'combobox', 'Country'), value: 'Italy' },
        { ref: ref(frame, 'textbox', 'Card number'), value: '4242424242424242' },
        { ref: ref(frame, 'textbox', 'CVC'), value: '123' },
      ],
    });
    await ok('browser_click', { ref: ref(snap, 'button', 'Pay €42') });
    assert.deepEqual(await got('pay'), { name: 'Ada Lovelace', street: '12 Rue de Rivoli', country: 'Italy', cc: '4242424242424242', cvc: '123' });
  });

  it('a sortable, paged table: sort by a header, page with Next, read a cell', async () => {
    const snap = await open('/orders');
    const sorted = await ok('browser_click', { ref: ref(snap, '\\w+', 'Total') });
    assert.match(sorted, /ascending/, 'the result says how the table is sorted now');
    const desc = await ok('browser_click', { ref: ref(snap, '\\w+', 'Total') });
    assert.match(desc, /descending/);
    assert.match(desc, /Linus/, 'the biggest order comes first');
    const tables = await ok('browser_extract', { what: 'tables' });
    assert.match(tables, /A-1009[\s\S]*Linus[\s\S]*€9\d\d/);
    const next = await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Next') });
    assert.match(next, /Page 2 of 3/);
    const last = await ok('browser_click', { ref: ref(await snapshot(), 'button', 'Next') });
    assert.match(last, /Page 3 of 3/);
    const end = await call('browser_click', { ref: ref(await snapshot(), 'button', 'Next') });
    assert.ok(end.isError);
    assert.match(end.text, /disabled/);
  });

  it('read-only fields: the full value is readable; typing into one says it is read-only', async () => {
    const snap = await open('/readonly');
    const code = lineOf(snap, 'textbox', 'Your referral code');
    assert.match(code, /REF-7H3K-Q9ZX-2024-LONG-CODE-VALUE/);
    assert.match(code, /readonly/);
    const r = await call('browser_type', { ref: refIn(code), text: 'x' });
    assert.ok(r.isError, r.text);
    assert.match(r.text, /read-?only/i);
    await ok('browser_type', { ref: ref(snap, 'textbox', 'Invite a friend (paste their code)'), text: 'REF-7H3K-Q9ZX-2024-LONG-CODE-VALUE' });
    await ok('browser_click', { ref: ref(snap, 'button', 'Save') });
    assert.deepEqual(await got('saved'), { friend: 'REF-7H3K-Q9ZX-2024-LONG-CODE-VALUE', clause: 'Clause 1: governed by the laws of Ireland.' });
  });

  it('keys: Escape closes a menu, arrows and Enter pick in it, Tab follows tabindex, an accesskey', async () => {
    const snap = await open('/keys');
    const opened = await ok('browser_click', { ref: ref(snap, 'button', 'File') });
    assert.match(opened, /Export as PDF/);
    const closed = await ok('browser_press_key', { key: 'Escape' });
    assert.match(closed, /Export as PDF/, 'the result says the menu went away');
    await ok('browser_click', { ref: ref(snap, 'button', 'File') });
    await ok('browser_press_key', { key: 'ArrowDown', repeat: 2 });
    await ok('browser_press_key', { key: 'Enter' });
    assert.equal(await got('menu'), 'Export as PDF');
    await ok('browser_click', { ref: ref(snap, 'textbox', 'First') });
    assert.equal(await got('focus'), 'a');
    const tab = await ok('browser_press_key', { key: 'Tab' });
    assert.equal(await got('focus'), 'b');
    assert.match(tab, /Second/, 'the result names where focus went');
    const save = lineOf(snap, 'button', 'Save');
    assert.match(save, /Alt\+S|accesskey/i, 'the snapshot shows the access key');
    await ok('browser_press_key', { key: 'Alt+s' });
    assert.equal(await got('save'), 'saved');
  });

  it('a link that opens a new tab and a download link: the results name the tab and the file', async () => {
    const snap = await open('/newtab');
    const opened = await ok('browser_click', { ref: ref(snap, 'link', 'View invoice INV-77') });
    assert.match(opened, /Invoice INV-77/);
    const back = /browser_tabs with action "select" and id "([0-9A-F]+)"/.exec(opened);
    assert.ok(back, `says how to go back to the page it acted on:\n${opened}`);
    const tabs = await ok('browser_tabs', { action: 'list' });
    assert.match(tabs, /\(active\) [\s\S]*Invoice INV-77/);
    await ok('browser_tabs', { action: 'select', id: back[1] });
    const dl = await ok('browser_click', { ref: ref(snap, 'link', 'Download CSV') });
    // On a loaded machine the result may come while the file is still being written: it says so, named.
    assert.match(dl, /Downloaded [\s\S]*invoices-2026\.csv[\s\S]*\(20 bytes\)|Downloading [\s\S]*invoices-2026\.csv[\s\S]*still in progress/);
  });
});
