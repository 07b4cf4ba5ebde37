import assert from 'node:assert/strict';
import { crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { evalPage, startHarness, type Harness } from '../actions/harness';

/** Components whose shadow roots are closed: page code outside cannot reach them, CDP can. */
const COMPONENTS = `<script>
window.log = [];
const fields = (window.fields = {});
customElements.define('x-closed', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({ mode: 'closed' });
    r.innerHTML = '<button>' + (this.getAttribute('label') || 'Closed button') + '</button> <input aria-label="' + (this.getAttribute('field') || 'Closed field') + '">';
    r.querySelector('button').addEventListener('click', () => log.push('click ' + r.querySelector('button').textContent));
    fields[r.querySelector('input').getAttribute('aria-label')] = r.querySelector('input');
  }
});
// Closed inside open.
customElements.define('x-open', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p>Open part</p><x-closed label="Deep button" field="Deep field"></x-closed>'; }
});
// Closed inside closed.
customElements.define('x-outer', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'closed' }).innerHTML = '<x-closed label="Nested button" field="Nested field"></x-closed>'; }
});
</script>`;

const PAGE = `<!doctype html><title>Closed roots</title><body>
<h1>Closed shadow roots</h1>
<p>Before the components.</p>
<x-closed></x-closed>
<x-open></x-open>
<x-outer></x-outer>
<div id=plain style="min-height:20px"></div>
${COMPONENTS}
<script>
const pr = document.getElementById('plain').attachShadow({ mode: 'closed' });
pr.innerHTML = '<a href="#plain-done">Plain div link</a>';
</script>
<iframe src="/inner" style="width:400px;height:150px"></iframe>
</body>`;

/** Many instances of a plain custom element before the components with closed roots. */
const CROWDED = `<!doctype html><title>Crowded</title><body>${'<x-plain><span>plain</span></x-plain>'.repeat(400)}${'<x-closed></x-closed>'.repeat(5)}${COMPONENTS}
<script>customElements.define('x-plain', class extends HTMLElement {});</script></body>`;

const INNER = `<!doctype html><title>Inner</title><body><x-closed label="Frame button" field="Frame field"></x-closed>${COMPONENTS}</body>`;

function refOf(snapshot: string, line: RegExp): string {
  const hit = snapshot.split('\n').find((l) => line.test(l));
  assert.ok(hit, `no line matching ${line} in:\n${snapshot}`);
  return /^\[([^\]]+)\]/.exec(hit!)![1];
}

describe('snapshot: closed shadow roots (reached through CDP)', function () {
  this.timeout(90_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ '/': PAGE, '/inner': INNER, '/crowded': CROWDED });
    h = await startHarness();
    await h.ok('browser_navigate', { url: `${srv.origin}/` });
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });

  it('lists elements inside closed roots (top level, closed in open, closed in closed, built-in host, same-process iframe) with refs', async () => {
    const snap = await h.ok('browser_snapshot', {});
    for (const line of [/^\[\d+\] button "Closed button"/, /^\[\d+\] textbox "Closed field"/, /^\[\d+\] button "Deep button"/, /^\[\d+\] textbox "Deep field"/, /^\[\d+\] button "Nested button"/, /^\[\d+\] textbox "Nested field"/, /^\[\d+\] link "Plain div link"/, /^\[f\d+:\d+\] button "Frame button"/, /^\[f\d+:\d+\] textbox "Frame field"/]) {
      refOf(snap, line);
    }
    assert.match(snap, /Open part/);
    // Document order: the top-level component comes before the nested ones.
    assert.ok(snap.indexOf('"Closed button"') < snap.indexOf('"Deep button"') && snap.indexOf('"Deep button"') < snap.indexOf('"Nested button"'));
  });

  it('keeps the refs stable across snapshots', async () => {
    const a = await h.ok('browser_snapshot', {});
    const b = await h.ok('browser_snapshot', {});
    for (const name of ['Closed button', 'Nested field', 'Frame button']) {
      const re = new RegExp(`^\\[[^\\]]+\\] \\w+ "${name}"`);
      assert.equal(refOf(b, re), refOf(a, re), name);
    }
  });

  it('browser_click and browser_type work on refs inside closed roots, nested ones and a frame', async () => {
    const snap = await h.ok('browser_snapshot', {});
    await h.ok('browser_click', { ref: refOf(snap, /button "Closed button"/) });
    await h.ok('browser_click', { ref: refOf(snap, /button "Nested button"/) });
    await h.ok('browser_click', { ref: refOf(snap, /button "Deep button"/) });
    assert.deepEqual(await evalPage(h, 'log'), ['click Closed button', 'click Nested button', 'click Deep button']);

    const typed = await h.ok('browser_type', { ref: refOf(snap, /textbox "Nested field"/), text: 'hello closed' });
    assert.match(typed, /hello closed/);
    await h.ok('browser_type', { ref: refOf(snap, /textbox "Closed field"/), text: 'top level' });
    assert.deepEqual(await evalPage(h, `[fields['Nested field'].value, fields['Closed field'].value]`), ['hello closed', 'top level']);

    await h.ok('browser_click', { ref: refOf(snap, /link "Plain div link"/) });
    assert.equal(await evalPage(h, 'location.hash'), '#plain-done');

    await h.ok('browser_click', { ref: refOf(snap, /button "Frame button"/) });
    await h.ok('browser_type', { ref: refOf(snap, /textbox "Frame field"/), text: 'in frame' });
    assert.deepEqual(await evalPage(h, `[document.querySelector('iframe').contentWindow.log, document.querySelector('iframe').contentWindow.fields['Frame field'].value]`), [['click Frame button'], 'in frame']);

    // The typed value shows in the next snapshot.
    assert.match(await h.ok('browser_snapshot', {}), /textbox "Nested field" (focused )?value="hello closed"/);
  });

  it('enters a closed root attached after the first snapshot (component defined late)', async () => {
    await evalPage(h, `customElements.define('x-late', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'closed' }).innerHTML = '<button>Late button</button>'; } }); document.body.append(document.createElement('x-late')); 1`);
    const snap = await h.ok('browser_snapshot', {});
    refOf(snap, /^\[\d+\] button "Late button"/);
  });

  it('finds closed roots behind hundreds of plain custom elements in the first snapshot', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/crowded` });
    const snap = await h.ok('browser_snapshot', {});
    assert.equal(snap.split('\n').filter((l) => /^\[\d+\] button "Closed button"/.test(l)).length, 5, snap.slice(-600));
  });

  it('enters closed roots inside an out-of-process iframe, and click/type work there', async () => {
    srv.route('/oopif', `<!doctype html><title>Cross</title><body><p>Host page</p><iframe src="${crossSite(`${srv.origin}/inner`)}" style="width:400px;height:150px"></iframe></body>`);
    await h.ok('browser_navigate', { url: `${srv.origin}/oopif` });
    let snap = '';
    for (let i = 0; i < 20 && !/"Frame field"/.test(snap); i++) snap = await h.ok('browser_snapshot', {});
    await h.ok('browser_click', { ref: refOf(snap, /^\[f\d+:\d+\] button "Frame button"/) });
    await h.ok('browser_type', { ref: refOf(snap, /^\[f\d+:\d+\] textbox "Frame field"/), text: 'cross site' });
    assert.match(await h.ok('browser_snapshot', {}), /textbox "Frame field" (focused )?value="cross site"/);
    const tab = await h.ctx.tab();
    const [child] = tab.frameSessions();
    assert.ok(child, 'the cross-site iframe runs in its own process');
    const log = await child.session.send('Runtime.evaluate', { expression: 'log', returnByValue: true });
    assert.deepEqual(log.result.value, ['click Frame button']);
  });
});
