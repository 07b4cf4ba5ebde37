// Hard but benign pages, round 2 (test/mcp/hardPages2.test.ts): shapes round 1 (hardPages.ts) did not cover —
// a consent wall over the page, a button disabled until a field is valid, a panel that slides in, the native
// date-like inputs round 1 left out, an editor that takes text only through beforeinput, maxlength, a
// card-number mask, <optgroup>, a multi-select ARIA listbox, switches and a roving radio group, a native
// <dialog>, <details>, tabs, one form split over a cross-origin frame and a shadow root, pagination and a
// sortable table, read-only fields, keyboard-driven menus and accesskeys, new tabs and downloads. Each page
// reports what a person's action achieved to the loopback server (`record(kind, data)` → POST /record, or a
// real form POST to /submit), so tests read the page's resulting state from the server, never our tool's text.

const page = (title: string, style: string, body: string, script = '') =>
  `<!doctype html><html><head><meta charset=utf-8><title>${title}</title><style>body{font:16px sans-serif;margin:20px} button{font-size:15px} label{display:block;margin-top:8px} ${style}</style></head><body>${body}<script>
const record = (kind, data) => fetch('/record', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind, data }) });
${script}</script></body></html>`;

/** A cookie consent wall: a full-screen backdrop over the page until a choice is made (as OneTrust does). */
export const CONSENT = page(
  'News',
  `#cmp{position:fixed;inset:0;background:rgba(0,0,0,.55);z-index:1000} #cmp .box{position:absolute;bottom:0;left:0;right:0;background:#fff;padding:16px} .filler{height:300px}`,
  `<h1>Daily News</h1><p>Top stories of the day.</p><div class=filler></div><button id=sub>Subscribe</button>
<div id=cmp><div class=box role=dialog aria-label="Cookie consent"><p>We use cookies to improve your experience.</p><button id=acc>Accept all</button> <button id=rej>Reject all</button></div></div>`,
  `const cmp = document.getElementById('cmp');
document.getElementById('acc').onclick = () => { cmp.remove(); record('consent', 'accept'); };
document.getElementById('rej').onclick = () => { cmp.remove(); record('consent', 'reject'); };
document.getElementById('sub').onclick = () => record('subscribe', 'yes');`,
);

/** A consent banner served in a cross-origin iframe laid over the page (as Sourcepoint and TrustArc do). */
export const CMP_FRAME = page(
  'Privacy choices',
  `body{margin:0;padding:12px;background:#fff}`,
  `<p>We and our 812 partners use cookies.</p><button id=ok>Accept all</button> <button id=no>Reject all</button>`,
  `for (const id of ['ok', 'no']) document.getElementById(id).onclick = () => parent.postMessage({ consent: id }, '*');`,
);
export const consentFramePage = (frameOrigin: string) =>
  page(
    'Recipes',
    `#cmp{position:fixed;left:0;right:0;bottom:0;width:100%;height:100%;border:0;background:rgba(0,0,0,.5);z-index:99} .filler{height:200px}`,
    `<h1>Recipes</h1><p>Today: lentil soup.</p><div class=filler></div><button id=save>Save recipe</button><iframe id=cmp src="${frameOrigin}/cmp-frame" title="Privacy choices"></iframe>`,
    `addEventListener('message', (e) => { if (e.data && e.data.consent) { document.getElementById('cmp').remove(); record('consent', e.data.consent); } });
document.getElementById('save').onclick = () => record('save', 'lentil soup');`,
  );

/** A fixed bottom bar (a chat prompt, an install banner) over the lower part of the page's last button: the page cannot scroll it clear. */
export const BOTTOM_BAR = page(
  'Terms',
  `body{margin:0;padding:20px 20px 0} .filler{height:1400px} #accept{display:block;width:260px;height:80px;margin:0} #bar{position:fixed;left:0;right:0;bottom:0;height:50px;background:#223;color:#fff;padding:8px}`,
  `<h1>Terms of service</h1><div class=filler>Long terms…</div><button id=accept>I have read the terms</button><div id=bar>Get our app! <button id=install>Install</button></div>`,
  `document.getElementById('accept').onclick = () => record('terms', 'read');`,
);

/** A button disabled until the field is valid; the page says why next to it (and through aria-describedby). */
export const DISABLED_UNTIL_VALID = page(
  'Reset password',
  `#why{color:#a00}`,
  `<h1>Reset your password</h1><label>Email <input id=email autocomplete=off></label>
<p id=why>Enter a valid email address to continue.</p><button id=send disabled aria-describedby=why>Send reset link</button>
<form id=nl><label>Newsletter email <input id=nle type=email required autocomplete=off></label><button id=nlb disabled>Join newsletter</button></form>`,
  `const email = document.getElementById('email'), send = document.getElementById('send'), why = document.getElementById('why');
email.addEventListener('input', () => { const ok = /^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$/i.test(email.value); send.disabled = !ok; why.textContent = ok ? '' : 'Enter a valid email address to continue.'; });
send.onclick = () => record('reset', email.value);
// This one says nothing: the form's own validity is the reason.
const nle = document.getElementById('nle'), nlb = document.getElementById('nlb');
nle.addEventListener('input', () => { nlb.disabled = !nle.validity.valid; });
document.getElementById('nl').addEventListener('submit', (e) => { e.preventDefault(); record('newsletter', nle.value); });`,
);

/** A cart drawer that slides in from the right over 700 ms; its button moves the whole time. */
export const DRAWER = page(
  'Shop',
  `#drawer{position:fixed;top:0;bottom:0;right:0;width:300px;background:#fff;border-left:2px solid #333;transform:translateX(110%);transition:transform .7s ease-out;padding:16px} #drawer.open{transform:none}`,
  `<h1>Running shoes</h1><button id=add>Add to cart</button><aside id=drawer aria-label="Cart"><h2>Your cart</h2><p id=items>Empty</p><button id=checkout>Checkout</button></aside>`,
  `document.getElementById('add').onclick = () => { document.getElementById('items').textContent = '1 × Running shoes'; document.getElementById('drawer').classList.add('open'); };
document.getElementById('checkout').onclick = () => record('checkout', document.getElementById('items').textContent);`,
);

/** The date-like inputs round 1 left out (datetime-local, month, week) and a range; every input/change is counted. */
export const DATETIME = page(
  'Schedule',
  ``,
  `<h1>Schedule a call</h1><form method=post action=/submit>
<label>Start <input type=datetime-local name=start></label>
<label>Billing month <input type=month name=month></label>
<label>Sprint week <input type=week name=week></label>
<label>Call length (minutes) <input type=range name=len min=15 max=120 step=15 value=30></label>
<button>Schedule</button></form>`,
  `const seen = {};
for (const el of document.querySelectorAll('input')) for (const t of ['input', 'change']) el.addEventListener(t, () => { seen[el.name] = (seen[el.name] || []).concat(t).filter((x, i, a) => a.indexOf(x) === i); });
const form = document.querySelector('form');
form.addEventListener('submit', async (e) => { e.preventDefault(); await record('events', seen); form.submit(); });`,
);

/** An editor that owns its document model (ProseMirror, Lexical, Slate): it cancels every beforeinput and applies it itself. */
export const MODEL_EDITOR = page(
  'Notes',
  `#ed{border:1px solid #888;min-height:80px;padding:8px;white-space:pre-wrap}`,
  `<h1>Meeting notes</h1><div id=ed contenteditable=true role=textbox aria-multiline=true aria-label="Notes"></div><p><button id=save>Save note</button></p>`,
  `// The model is a plain string; the DOM is re-rendered from it after every change. Text the browser would put in
// the DOM by itself is refused (beforeinput cancelled), so only what comes through beforeinput counts.
let doc = 'Agenda: TBD';
const ed = document.getElementById('ed');
const render = (caret) => { ed.textContent = doc; const r = document.createRange(); const t = ed.firstChild || ed; r.setStart(t, Math.min(caret, doc.length)); r.collapse(true); const s = getSelection(); s.removeAllRanges(); s.addRange(r); };
const offsets = () => { const s = getSelection(); if (!s.rangeCount) return [doc.length, doc.length]; const r = s.getRangeAt(0); if (!ed.contains(r.startContainer)) return [doc.length, doc.length]; const at = (n, o) => n === ed ? (o ? doc.length : 0) : o; return [at(r.startContainer, r.startOffset), at(r.endContainer, r.endOffset)]; };
ed.addEventListener('beforeinput', (e) => {
  e.preventDefault();
  const [a, b] = offsets();
  if (e.inputType === 'insertText' || e.inputType === 'insertReplacementText' || e.inputType === 'insertFromPaste') { const t = e.data ?? e.dataTransfer?.getData('text/plain') ?? ''; doc = doc.slice(0, a) + t + doc.slice(b); render(a + t.length); }
  else if (e.inputType === 'insertParagraph' || e.inputType === 'insertLineBreak') { doc = doc.slice(0, a) + '\\n' + doc.slice(b); render(a + 1); }
  else if (e.inputType === 'deleteContentBackward') { const s = a === b ? Math.max(0, a - 1) : a; doc = doc.slice(0, s) + doc.slice(b); render(s); }
  else if (e.inputType.startsWith('delete')) { const t = a === b ? Math.min(doc.length, b + 1) : b; doc = doc.slice(0, a) + doc.slice(t); render(a); }
});
render(doc.length);
document.getElementById('save').onclick = () => record('note', doc);`,
);

/** A plain contenteditable message box (white-space: normal, as most are) and a date field that is readonly and opens a picker (flatpickr-style). */
export const COMPOSE = page(
  'New message',
  `#body{border:1px solid #888;min-height:80px;padding:8px} #cal{border:1px solid #888;display:inline-block;padding:6px} #cal button{width:36px}`,
  `<h1>New message</h1><div id=body contenteditable=true role=textbox aria-label="Message"></div>
<label>Send on <input id=when readonly placeholder="Pick a date"></label><div id=calhost></div>
<p><button id=send>Send</button></p>`,
  `const when = document.getElementById('when');
when.addEventListener('click', () => {
  const host = document.getElementById('calhost');
  if (host.firstChild) return;
  host.innerHTML = '<div id=cal role=dialog aria-label="Choose a date"><div>December 2026</div>' + [21, 22, 23, 24, 25].map((d) => '<button type=button data-d=' + d + '>' + d + '</button>').join('') + '</div>';
  host.querySelector('#cal').addEventListener('click', (e) => { const d = e.target.dataset.d; if (d) { when.value = '2026-12-' + d; host.innerHTML = ''; } });
});
document.getElementById('send').onclick = () => record('message', { body: document.getElementById('body').innerText.trim(), when: when.value });`,
);

/** Cart quantities: a number input, a custom spinbutton (arrow keys), a switch that is a visually hidden checkbox, a sort select that reloads. */
export const QUANTITIES = page(
  'Cart',
  `.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)} .track{display:inline-block;width:40px;height:20px;border-radius:10px;background:#ccc} input:checked + .track{background:#4a4} [role=spinbutton]{display:inline-block;border:1px solid #888;padding:4px 10px}`,
  `<h1>Cart</h1><form method=post action=/submit>
<label>Coffee beans (bags) <input type=number name=beans min=1 max=10 value=1></label>
<p><span id=fl>Filters</span> <span role=spinbutton tabindex=0 aria-labelledby=fl aria-valuenow=2 aria-valuemin=1 aria-valuemax=9 id=filters>2</span><input type=hidden name=filters value=2></p>
<label><input type=checkbox name=gift class=sr role=switch><span class=track></span> Gift wrap</label>
<button>Update cart</button></form>`,
  `const sp = document.getElementById('filters'), hid = document.querySelector('[name=filters]');
const setN = (n) => { n = Math.max(1, Math.min(9, n)); sp.setAttribute('aria-valuenow', n); sp.textContent = n; hid.value = n; };
sp.addEventListener('keydown', (e) => { const n = +sp.getAttribute('aria-valuenow'); if (e.key === 'ArrowUp') { setN(n + 1); e.preventDefault(); } if (e.key === 'ArrowDown') { setN(n - 1); e.preventDefault(); } if (e.key === 'Home') setN(1); if (e.key === 'End') setN(9); });`,
);

/** A textarea with maxlength and a counter; a card-number field that groups digits and an expiry that adds the slash. */
export const LIMITS = page(
  'Checkout',
  ``,
  `<h1>Gift message and payment</h1><form method=post action=/submit>
<label>Gift message <textarea name=msg maxlength=40 rows=3 cols=40></textarea></label><small id=count>0 / 40</small>
<label>Card number <input name=card inputmode=numeric autocomplete=off></label>
<label>Expiry <input name=exp placeholder="MM / YY" autocomplete=off></label>
<button>Pay</button></form>`,
  `const msg = document.querySelector('[name=msg]');
msg.addEventListener('input', () => { document.getElementById('count').textContent = msg.value.length + ' / 40'; });
const card = document.querySelector('[name=card]');
card.addEventListener('input', () => { const d = card.value.replace(/\\D/g, '').slice(0, 16); card.value = d.replace(/(\\d{4})(?=\\d)/g, '$1 '); });
const exp = document.querySelector('[name=exp]');
exp.addEventListener('input', (e) => { let d = exp.value.replace(/\\D/g, '').slice(0, 4); exp.value = d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2) : d; });`,
);

/** A native select with optgroups where one label is in two groups, and a native multiple select. */
export const OPTGROUP = page(
  'Office',
  ``,
  `<h1>Choose an office</h1><form method=post action=/submit>
<label>Office <select name=office><option value="">Pick one</option>
<optgroup label="United States"><option value=us-spr>Springfield</option><option value=us-por>Portland</option></optgroup>
<optgroup label="Australia"><option value=au-spr>Springfield</option><option value=au-syd>Sydney</option></optgroup></select></label>
<button>Save</button></form>`,
);

/** An ARIA listbox with aria-multiselectable: clicking an option toggles it (no native select behind it). */
export const ARIA_MULTI = page(
  'Interests',
  `[role=option]{padding:4px 8px;cursor:pointer;border:1px solid #ccc;margin:2px;width:200px} [aria-selected=true]{background:#cde}`,
  `<h1>Your interests</h1><div id=lbl>Topics</div><div role=listbox aria-multiselectable=true aria-labelledby=lbl tabindex=0 id=topics>
<div role=option aria-selected=false>Science</div><div role=option aria-selected=false>Sports</div><div role=option aria-selected=false>Travel</div><div role=option aria-selected=false>Music</div></div>
<p><button id=save>Save interests</button></p>`,
  `document.getElementById('topics').addEventListener('click', (e) => { const o = e.target.closest('[role=option]'); if (o) o.setAttribute('aria-selected', String(o.getAttribute('aria-selected') !== 'true')); });
document.getElementById('save').onclick = () => record('interests', [...document.querySelectorAll('[aria-selected=true]')].map((o) => o.textContent));`,
);

/** A file-manager listbox: a click selects only that row, Control+click adds or removes one (as most multi-select lists do). */
export const CTRL_LIST = page(
  'Files',
  `[role=option]{padding:4px 8px;cursor:default;width:200px} [aria-selected=true]{background:#cde}`,
  `<h1>Shared files</h1><div id=fl>Files</div><div role=listbox aria-multiselectable=true aria-labelledby=fl id=files tabindex=0>
<div role=option aria-selected=false>budget.xlsx</div><div role=option aria-selected=false>notes.txt</div><div role=option aria-selected=false>photo.png</div><div role=option aria-selected=false>plan.pdf</div></div>
<p><button id=del>Delete selected</button></p>`,
  `const opts = [...document.querySelectorAll('[role=option]')];
document.getElementById('files').addEventListener('click', (e) => {
  const o = e.target.closest('[role=option]'); if (!o) return;
  if (e.ctrlKey || e.metaKey) o.setAttribute('aria-selected', String(o.getAttribute('aria-selected') !== 'true'));
  else for (const x of opts) x.setAttribute('aria-selected', String(x === o));
});
document.getElementById('del').onclick = () => record('delete', opts.filter((o) => o.getAttribute('aria-selected') === 'true').map((o) => o.textContent));`,
);

/** Settings with role=switch toggles (buttons, aria-checked) and a custom radio group with roving tabindex and arrow keys. */
export const SWITCHES = page(
  'Preferences',
  `[role=switch]{width:44px;height:24px;border-radius:12px;border:1px solid #888;background:#ddd} [role=switch][aria-checked=true]{background:#4a4} [role=radio]{display:inline-block;padding:6px 10px;border:1px solid #888;margin:2px;cursor:pointer} [role=radio][aria-checked=true]{background:#cde}`,
  `<h1>Preferences</h1><p><span id=l1>Email notifications</span> <button role=switch aria-checked=true aria-labelledby=l1 id=s1></button></p>
<p><span id=l2>Dark mode</span> <button role=switch aria-checked=false aria-labelledby=l2 id=s2></button></p>
<p id=gl>Text size</p><div role=radiogroup aria-labelledby=gl id=size><div role=radio aria-checked=true tabindex=0>Small</div><div role=radio aria-checked=false tabindex=-1>Medium</div><div role=radio aria-checked=false tabindex=-1>Large</div></div>
<p><button id=save>Save preferences</button></p>`,
  `for (const s of document.querySelectorAll('[role=switch]')) s.onclick = () => s.setAttribute('aria-checked', String(s.getAttribute('aria-checked') !== 'true'));
const radios = [...document.querySelectorAll('[role=radio]')];
const pick = (r) => { for (const x of radios) { x.setAttribute('aria-checked', String(x === r)); x.tabIndex = x === r ? 0 : -1; } r.focus(); };
for (const r of radios) {
  r.onclick = () => pick(r);
  r.onkeydown = (e) => { const i = radios.indexOf(r); if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { pick(radios[(i + 1) % radios.length]); e.preventDefault(); } if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { pick(radios[(i + radios.length - 1) % radios.length]); e.preventDefault(); } };
}
document.getElementById('save').onclick = () => record('prefs', { email: s1.getAttribute('aria-checked'), dark: s2.getAttribute('aria-checked'), size: radios.find((r) => r.getAttribute('aria-checked') === 'true').textContent });`,
);

/** A native <dialog> opened with showModal(): the rest of the page is inert; Escape closes it. */
export const NATIVE_DIALOG = page(
  'Files',
  `dialog::backdrop{background:rgba(0,0,0,.4)}`,
  `<h1>Files</h1><ul><li>report.pdf <button id=del>Delete</button></li></ul><button id=help>Help</button>
<dialog id=dlg aria-labelledby=dt><h2 id=dt>Delete report.pdf?</h2><p>This cannot be undone.</p><form method=dialog><button value=cancel>Cancel</button> <button value=delete id=yes>Delete file</button></form></dialog>`,
  `const dlg = document.getElementById('dlg');
document.getElementById('del').onclick = () => dlg.showModal();
dlg.addEventListener('close', () => record('dialog', dlg.returnValue || 'escape'));
document.getElementById('help').onclick = () => record('help', 'opened');`,
);

/** An FAQ of <details>/<summary>, and a tabs widget whose other panels are hidden. */
export const DISCLOSURE = page(
  'Product page',
  `[role=tab][aria-selected=true]{font-weight:bold}`,
  `<h1>Trail backpack</h1>
<div role=tablist aria-label="Product information"><button role=tab id=t1 aria-selected=true aria-controls=p1>Description</button><button role=tab id=t2 aria-selected=false aria-controls=p2 tabindex=-1>Specifications</button><button role=tab id=t3 aria-selected=false aria-controls=p3 tabindex=-1>Reviews</button></div>
<div role=tabpanel id=p1 aria-labelledby=t1><p>A light pack for day hikes.</p></div>
<div role=tabpanel id=p2 aria-labelledby=t2 hidden><p>Weight: 1.2 kg</p><p>Volume: 28 litres</p></div>
<div role=tabpanel id=p3 aria-labelledby=t3 hidden><p>4.6 out of 5 (212 reviews)</p></div>
<h2>FAQ</h2><details><summary>What is the return policy?</summary><p>Returns are free within 60 days.</p></details><details><summary>Is it waterproof?</summary><p>It is water resistant, not waterproof.</p></details>`,
  `const tabs = [...document.querySelectorAll('[role=tab]')];
for (const t of tabs) t.onclick = () => { for (const x of tabs) { x.setAttribute('aria-selected', String(x === t)); x.tabIndex = x === t ? 0 : -1; document.getElementById(x.getAttribute('aria-controls')).hidden = x !== t; } };`,
);

/** One checkout form split over the page, an open shadow root and a cross-origin iframe (hosted card fields). */
export const CARD_FRAME = page(
  'Card fields',
  `body{margin:4px}`,
  `<label>Card number <input id=cc autocomplete=off></label><label>CVC <input id=cvc autocomplete=off></label>`,
  `addEventListener('message', (e) => { if (e.data === 'collect') e.source.postMessage({ cc: document.getElementById('cc').value, cvc: document.getElementById('cvc').value }, '*'); });`,
);
export const splitCheckout = (frameOrigin: string) =>
  page(
    'Checkout',
    `iframe{width:420px;height:120px;border:1px solid #999;display:block}`,
    `<h1>Checkout</h1><label>Name on card <input id=name autocomplete=off></label><address-box></address-box><iframe id=pay src="${frameOrigin}/card-frame" title="Secure card payment"></iframe><button id=pay-btn>Pay €42</button>`,
    `customElements.define('address-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<label>Street <input id=street autocomplete=off></label><label>Country <select id=country><option>France</option><option>Italy</option></select></label>'; }
});
document.getElementById('pay-btn').onclick = () => {
  addEventListener('message', (e) => { const r = document.querySelector('address-box').shadowRoot; record('pay', { name: document.getElementById('name').value, street: r.getElementById('street').value, country: r.getElementById('country').value, ...e.data }); }, { once: true });
  document.getElementById('pay').contentWindow.postMessage('collect', '*');
};`,
  );

/** Orders table: sortable headers (aria-sort, buttons in the th), client-side pages with a Next button. */
export const ORDERS = page(
  'Orders',
  `td,th{border:1px solid #999;padding:4px 8px} th button{border:0;background:none;font-weight:bold}`,
  `<h1>Orders</h1><table id=t><thead><tr><th aria-sort=none><button data-k=id>Order</button></th><th aria-sort=none><button data-k=customer>Customer</button></th><th aria-sort=none><button data-k=total>Total</button></th></tr></thead><tbody></tbody></table>
<nav aria-label=Pagination><button id=prev>Previous</button> <span id=pg></span> <button id=next>Next</button></nav>`,
  `const names = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Ken', 'Dennis', 'Linus', 'Margaret', 'Tim', 'Vint'];
const rows = names.map((c, i) => ({ id: 'A-' + (1001 + i), customer: c, total: ((i * 37) % 90) + 10 + (i === 8 ? 900 : 0) }));
let page = 0, key = null, dir = 1;
function draw() {
  const sorted = key ? [...rows].sort((a, b) => (a[key] > b[key] ? 1 : a[key] < b[key] ? -1 : 0) * dir) : rows;
  document.querySelector('tbody').innerHTML = sorted.slice(page * 5, page * 5 + 5).map((r) => '<tr><td>' + r.id + '</td><td>' + r.customer + '</td><td>€' + r.total + '</td></tr>').join('');
  document.getElementById('pg').textContent = 'Page ' + (page + 1) + ' of 3';
  document.getElementById('prev').disabled = page === 0; document.getElementById('next').disabled = page === 2;
  for (const th of document.querySelectorAll('th')) th.setAttribute('aria-sort', th.firstChild.dataset.k === key ? (dir > 0 ? 'ascending' : 'descending') : 'none');
}
for (const b of document.querySelectorAll('th button')) b.onclick = () => { if (key === b.dataset.k) dir = -dir; else { key = b.dataset.k; dir = 1; } page = 0; draw(); };
document.getElementById('next').onclick = () => { page++; draw(); };
document.getElementById('prev').onclick = () => { page--; draw(); };
draw();`,
);

/** Read-only things: a readonly field with a value to copy, an editor with a locked (contenteditable=false) block. */
export const READONLY = page(
  'API access',
  `#doc{border:1px solid #888;padding:8px} .locked{background:#eee}`,
  `<h1>API access</h1><label>Your referral code <input id=code readonly value="REF-7H3K-Q9ZX-2024-LONG-CODE-VALUE"></label>
<label>Invite a friend (paste their code) <input id=friend autocomplete=off></label>
<div id=doc contenteditable=true role=textbox aria-label="Contract"><p class=locked contenteditable=false id=lock>Clause 1: governed by the laws of Ireland.</p><p>Notes: </p></div>
<p><button id=save>Save</button></p>`,
  `document.getElementById('save').onclick = () => record('saved', { friend: document.getElementById('friend').value, clause: document.getElementById('lock').textContent });`,
);

/** Keyboard: a menu button (Escape closes, arrows move), an accesskey, and a form whose Tab order the page set. */
export const KEYS = page(
  'Editor',
  `[role=menu]{border:1px solid #888;width:160px;position:absolute;background:#fff} [role=menu][hidden]{display:none} [role=menuitem]{padding:4px}`,
  `<h1>Document</h1><button id=mb aria-haspopup=menu aria-expanded=false aria-controls=m>File</button><div role=menu id=m hidden><div role=menuitem tabindex=-1>New</div><div role=menuitem tabindex=-1>Open…</div><div role=menuitem tabindex=-1>Export as PDF</div></div>
<p><button id=save accesskey=s>Save</button> (Alt+S)</p>
<label>First <input id=a tabindex=1 autocomplete=off></label><label>Third <input id=c tabindex=3 autocomplete=off></label><label>Second <input id=b tabindex=2 autocomplete=off></label>`,
  `const mb = document.getElementById('mb'), m = document.getElementById('m'), items = [...m.children];
const close = () => { m.hidden = true; mb.setAttribute('aria-expanded', 'false'); mb.focus(); };
mb.onclick = () => { m.hidden = false; mb.setAttribute('aria-expanded', 'true'); items[0].focus(); };
m.addEventListener('keydown', (e) => { const i = items.indexOf(document.activeElement); if (e.key === 'Escape') close(); if (e.key === 'ArrowDown') items[(i + 1) % items.length].focus(); if (e.key === 'ArrowUp') items[(i + items.length - 1) % items.length].focus(); if (e.key === 'Enter') { record('menu', document.activeElement.textContent); close(); } e.preventDefault(); });
document.getElementById('save').onclick = () => record('save', 'saved');
for (const id of ['a', 'b', 'c']) document.getElementById(id).addEventListener('focus', () => record('focus', id));`,
);

/** A link that opens in a new tab and a download link. */
export const NEW_TAB = page(
  'Invoices',
  ``,
  `<h1>Invoices</h1><p><a href="/invoice-view" target=_blank>View invoice INV-77</a></p><p><a href="/invoice.csv" download>Download CSV</a></p>`,
);
export const INVOICE_VIEW = page('Invoice INV-77', ``, `<h1>Invoice INV-77</h1><p>Total due: €310.00</p>`);

/** Every page of round 2 by path (the card frame and splitCheckout are routed by the test: they need two origins). */
export const HARD_PAGES_2: Record<string, string> = {
  '/consent': CONSENT,
  '/cmp-frame': CMP_FRAME,
  '/bottom-bar': BOTTOM_BAR,
  '/disabled': DISABLED_UNTIL_VALID,
  '/drawer': DRAWER,
  '/datetime': DATETIME,
  '/model-editor': MODEL_EDITOR,
  '/limits': LIMITS,
  '/quantities': QUANTITIES,
  '/compose': COMPOSE,
  '/optgroup': OPTGROUP,
  '/aria-multi': ARIA_MULTI,
  '/ctrl-list': CTRL_LIST,
  '/switches': SWITCHES,
  '/dialog': NATIVE_DIALOG,
  '/disclosure': DISCLOSURE,
  '/card-frame': CARD_FRAME,
  '/orders': ORDERS,
  '/readonly': READONLY,
  '/keys': KEYS,
  '/newtab': NEW_TAB,
  '/invoice-view': INVOICE_VIEW,
};
