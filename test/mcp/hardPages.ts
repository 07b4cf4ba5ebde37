// Hard but benign pages, written for test/mcp/hardPages.test.ts: the shapes of ordinary web apps agents fail
// on (controlled inputs, masks, custom pickers and listboxes in portals, hover menus, focus traps, wizards,
// virtualized and infinite lists, drag and drop, sliders, hidden file inputs, frames, shadow roots, late
// enabled buttons, toasts). Each page reports what a person's action achieved to the loopback server
// (`record(kind, data)` → POST /record, or a real form POST to /submit), so tests read the page's resulting
// state from the server, never from our tool's text.

const page = (title: string, style: string, body: string, script = '') =>
  `<!doctype html><html><head><meta charset=utf-8><title>${title}</title><style>body{font:16px sans-serif;margin:20px} button{font-size:15px} ${style}</style></head><body>${body}<script>
const record = (kind, data) => fetch('/record', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind, data }) });
${script}</script></body></html>`;

/** A React-style controlled form: app state changes only through input events the value tracker sees. */
export const REACT = page(
  'Profile',
  `label{display:block;margin-top:10px}`,
  `<h1>Edit profile</h1><div id=root>
<label for=name>Full name</label><input id=name autocomplete=off>
<label for=age>Age</label><input id=age inputmode=numeric autocomplete=off>
<label for=bio>Short bio</label><textarea id=bio></textarea>
<p>Preview: <span id=preview></span></p>
<button id=save type=button>Save profile</button></div>`,
  `// What React does: a per-node tracker of the value last set by the app (an own 'value' property); an input
// event whose value equals the tracked one is no change; after every change the app renders its state back.
const state = { name: '', age: '', bio: '' };
function control(el, key, accept = (v) => v) {
  const proto = Object.getPrototypeOf(el);
  const desc = Object.getOwnPropertyDescriptor(proto, 'value');
  let tracked = desc.get.call(el);
  Object.defineProperty(el, 'value', { configurable: true, get() { return desc.get.call(this); }, set(v) { tracked = String(v); desc.set.call(this, v); } });
  el.addEventListener('input', () => {
    const v = desc.get.call(el);
    if (v === tracked) return;
    tracked = v;
    state[key] = accept(v);
    render();
  });
}
function render() {
  for (const k of Object.keys(state)) { const el = document.getElementById(k); if (el.value !== state[k]) el.value = state[k]; }
  document.getElementById('preview').textContent = (state.name || '?') + ', ' + (state.age || '?');
}
control(document.getElementById('name'), 'name');
control(document.getElementById('age'), 'age', (v) => v.replace(/\\D/g, '').slice(0, 3));
control(document.getElementById('bio'), 'bio');
document.getElementById('save').onclick = () => record('profile', { ...state });`,
);

/** Input masks: a phone mask reformatting on every input event, a date mask that works on keydown only. */
export const MASKS = page(
  'Contact details',
  `label{display:block;margin-top:10px}`,
  `<h1>Contact details</h1><form method=post action=/submit>
<label>Phone <input id=phone name=phone placeholder="(___) ___-____" autocomplete=off></label>
<label>Date of birth <input id=dob name=dob placeholder="MM/DD/YYYY" autocomplete=off></label>
<button>Continue</button></form>`,
  `const phone = document.getElementById('phone');
phone.addEventListener('input', () => {
  const d = phone.value.replace(/\\D/g, '').slice(0, 10);
  phone.value = d.length > 6 ? '(' + d.slice(0, 3) + ') ' + d.slice(3, 6) + '-' + d.slice(6) : d.length > 3 ? '(' + d.slice(0, 3) + ') ' + d.slice(3) : d;
});
// An older mask library: each key is taken on keydown, the default action prevented, and the value rebuilt
// from the digits it has seen; paste and other input it puts back to what it had.
const dob = document.getElementById('dob');
let digits = '';
const fmt = (d) => [d.slice(0, 2), d.slice(2, 4), d.slice(4, 8)].filter(Boolean).join('/');
dob.addEventListener('keydown', (e) => {
  if (e.key === 'Backspace') { e.preventDefault(); digits = digits.slice(0, -1); dob.value = fmt(digits); return; }
  if (e.key.length !== 1 || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  if (/\\d/.test(e.key) && digits.length < 8) { digits += e.key; dob.value = fmt(digits); }
});
dob.addEventListener('input', () => { dob.value = fmt(digits); });`,
);

/** Native date, time, range and color inputs in a form posted to the server. */
export const NATIVE = page(
  'Booking',
  `label{display:block;margin-top:10px}`,
  `<h1>Book a table</h1><form method=post action=/submit>
<label>Date <input type=date name=date min="2026-01-01" max="2027-12-31"></label>
<label>Time <input type=time name=time></label>
<label>Guests <input type=range name=guests min=1 max=12 value=2></label>
<label>Napkin colour <input type=color name=colour value="#ffffff"></label>
<button>Book</button></form>`,
);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A custom calendar popup: day cells are table cells with a delegated click listener, months paged by arrows. */
export const CALENDAR = page(
  'Hotel search',
  `#cal{border:1px solid #999;padding:8px;position:absolute;background:#fff;width:280px} #cal[hidden]{display:none} #cal td{padding:4px 6px;text-align:center;cursor:pointer} #cal td.empty{cursor:default} #cal td:hover{background:#def} .nav{cursor:pointer;padding:2px 8px;display:inline-block}`,
  `<h1>Find a hotel</h1><label>Check-in <input id=checkin readonly placeholder="Select date"></label>
<div id=cal hidden><div><span class=nav id=prev aria-label="Previous month">‹</span><b id=title></b><span class=nav id=next aria-label="Next month">›</span></div>
<table><thead><tr><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th><th>Sa</th><th>Su</th></tr></thead><tbody id=days></tbody></table></div>
<p><button id=search type=button>Search hotels</button></p>`,
  `const months = ${JSON.stringify(MONTHS)};
let y = 2026, m = 10; // November 2026
const input = document.getElementById('checkin'), cal = document.getElementById('cal');
function draw() {
  document.getElementById('title').textContent = months[m] + ' ' + y;
  const first = (new Date(y, m, 1).getDay() + 6) % 7, n = new Date(y, m + 1, 0).getDate();
  let html = '<tr>' + '<td class=empty></td>'.repeat(first);
  for (let d = 1; d <= n; d++) { html += '<td data-day=' + d + '>' + d + '</td>'; if ((first + d) % 7 === 0) html += '</tr><tr>'; }
  document.getElementById('days').innerHTML = html + '</tr>';
}
input.addEventListener('click', () => { cal.hidden = false; draw(); });
document.getElementById('prev').onclick = () => { if (--m < 0) { m = 11; y--; } draw(); };
document.getElementById('next').onclick = () => { if (++m > 11) { m = 0; y++; } draw(); };
document.getElementById('days').addEventListener('click', (e) => {
  const td = e.target.closest('td[data-day]');
  if (!td) return;
  input.value = y + '-' + String(m + 1).padStart(2, '0') + '-' + String(td.dataset.day).padStart(2, '0');
  cal.hidden = true;
});
document.getElementById('search').onclick = () => record('checkin', input.value);`,
);

/** Custom selects whose option lists are rendered in a portal at the end of <body> when opened. */
export const COMBOBOX = page(
  'Shipping',
  `.select{border:1px solid #888;padding:6px;width:220px;cursor:pointer;margin:6px 0} .portal{position:absolute;border:1px solid #888;background:#fff;width:232px;z-index:10} .portal .opt{padding:6px;cursor:pointer} .portal .opt:hover{background:#def}`,
  `<h1>Shipping</h1>
<div>Country</div><div class=select id=country tabindex=0>Choose a country</div>
<div id=speed-label>Delivery speed</div><div class=select id=speed role=combobox aria-labelledby=speed-label aria-expanded=false aria-haspopup=listbox tabindex=0>Standard</div>
<p><button id=go type=button>Continue to payment</button></p>`,
  `// Each select opens its list in a portal appended to <body>, positioned under it; the list closes on a pick
// or on a click elsewhere.
let open = null;
function close() { if (open) { open.el.remove(); open.host.setAttribute('aria-expanded', 'false'); open = null; } }
function openList(host, options, aria) {
  close();
  const r = host.getBoundingClientRect();
  const el = document.createElement('div');
  el.className = 'portal';
  if (aria) el.setAttribute('role', 'listbox');
  el.style.left = r.left + scrollX + 'px';
  el.style.top = r.bottom + scrollY + 'px';
  el.innerHTML = options.map((o) => '<div class=opt' + (aria ? ' role=option aria-selected=' + (o === host.textContent) : '') + '>' + o + '</div>').join('');
  el.addEventListener('click', (e) => { const o = e.target.closest('.opt'); if (!o) return; host.textContent = o.textContent; close(); });
  document.body.append(el);
  host.setAttribute('aria-expanded', 'true');
  open = { el, host };
}
const countries = ['Austria', 'Belgium', 'Canada', 'Denmark', 'Estonia', 'France', 'Germany'];
document.getElementById('country').addEventListener('click', (e) => { e.stopPropagation(); open?.host.id === 'country' ? close() : openList(e.currentTarget, countries, false); });
document.getElementById('speed').addEventListener('click', (e) => { e.stopPropagation(); open?.host.id === 'speed' ? close() : openList(e.currentTarget, ['Standard', 'Express', 'Overnight'], true); });
document.addEventListener('click', (e) => { if (open && !open.el.contains(e.target)) close(); });
document.getElementById('go').onclick = () => record('shipping', { country: document.getElementById('country').textContent, speed: document.getElementById('speed').textContent });`,
);

/** A native multi-select in a posted form. */
export const MULTI = page(
  'Pizza',
  ``,
  `<h1>Build your pizza</h1><form method=post action=/submit>
<label for=top>Toppings</label><br><select id=top name=toppings multiple size=6><option value=ham>Ham</option><option value=mush>Mushrooms</option><option value=oli>Olives</option><option value=pep>Peppers</option><option value=pin>Pineapple</option><option value=oni>Onions</option></select>
<p><label>Size <select name=size><option>Small</option><option selected>Medium</option><option>Large</option></select></label></p>
<button>Order</button></form>`,
);

/** A contenteditable rich-text editor with a toolbar; the app reads the editor's text on publish. */
export const EDITOR = page(
  'New post',
  `#ed{border:1px solid #999;min-height:80px;padding:8px} .tb button{margin-right:4px}`,
  `<h1>New post</h1><div class=tb><button type=button aria-label=Bold onmousedown="event.preventDefault()" onclick="document.execCommand('bold')"><b>B</b></button><button type=button aria-label=Italic onmousedown="event.preventDefault()" onclick="document.execCommand('italic')"><i>I</i></button></div>
<div id=ed contenteditable=true role=textbox aria-multiline=true aria-label="Post body"><p>Draft from yesterday</p></div>
<p><button id=pub type=button>Publish</button></p>`,
  `document.getElementById('pub').onclick = () => record('post', { text: document.getElementById('ed').innerText.trim(), html: document.getElementById('ed').innerHTML });`,
);

/** A navigation bar whose submenus appear only on CSS :hover, two levels deep. */
export const HOVER_MENU = page(
  'Store',
  `nav ul{list-style:none;margin:0;padding:0} nav > ul > li{display:inline-block;position:relative;padding:8px 14px;background:#eee} nav li ul{display:none;position:absolute;left:0;top:100%;background:#fff;border:1px solid #999;min-width:160px} nav li li{position:relative;padding:8px} nav li li ul{left:100%;top:0} nav li:hover > ul{display:block} nav a{color:#00c}`,
  `<nav><ul><li>Home</li><li>Products<ul><li>Hardware<ul><li><a href="#kb" data-item=keyboards>Keyboards</a></li></ul></li><li>Software<ul><li><a href="#ed" data-item=editors>Code editors</a></li><li><a href="#db" data-item=databases>Databases</a></li></ul></li></ul></li><li>Support</li></ul></nav>
<h1>Welcome to the store</h1><p>Pick a category from the menu.</p>
<div id=account style="display:inline-block;padding:8px 14px;background:#eee;position:relative">My account<div id=acct-menu style="display:none;position:absolute;left:0;top:100%;background:#fff;border:1px solid #999;min-width:140px"><div class=mi data-item=orders style="padding:6px;cursor:pointer">Orders</div><div class=mi data-item=logout style="padding:6px;cursor:pointer">Sign out</div></div></div>`,
  `document.querySelector('nav').addEventListener('click', (e) => { const a = e.target.closest('a[data-item]'); if (a) { e.preventDefault(); record('category', a.dataset.item); } });
// A script-driven hover menu (no CSS :hover): mouseenter shows it, mouseleave hides it.
const acct = document.getElementById('account'), menu = document.getElementById('acct-menu');
acct.addEventListener('mouseenter', () => { menu.style.display = 'block'; });
acct.addEventListener('mouseleave', () => { menu.style.display = 'none'; });
menu.addEventListener('click', (e) => { const m = e.target.closest('.mi'); if (m) record('account', m.dataset.item); });`,
);

/** A modal dialog with a focus trap (Tab cycles inside; focus leaving is pulled back) and a form inside. */
export const MODAL = page(
  'Newsletter',
  `#backdrop{position:fixed;inset:0;background:rgba(0,0,0,.4)} #backdrop[hidden]{display:none} #dlg{background:#fff;width:340px;margin:80px auto;padding:16px} label{display:block;margin:8px 0}`,
  `<h1>Our blog</h1><p>Read our articles.</p><button id=open>Subscribe to the newsletter</button><p><a href="#about">About us</a></p>
<div id=backdrop hidden><div id=dlg role=dialog aria-modal=true aria-labelledby=dlgt><h2 id=dlgt>Subscribe</h2>
<form id=f><label>Your email <input name=email type=email required></label>
<label>How often <select name=freq><option>Weekly</option><option>Monthly</option></select></label>
<label><input type=checkbox name=gdpr> I agree to receive emails</label>
<button type=button id=cancel>Cancel</button> <button id=confirm>Confirm subscription</button></form></div></div>`,
  `const bd = document.getElementById('backdrop'), dlg = document.getElementById('dlg'), f = document.getElementById('f');
const focusables = () => [...dlg.querySelectorAll('input,select,button')];
document.getElementById('open').onclick = () => { bd.hidden = false; focusables()[0].focus(); };
document.getElementById('cancel').onclick = () => { bd.hidden = true; };
dlg.addEventListener('keydown', (e) => {
  if (e.key !== 'Tab') return;
  const all = focusables(), i = all.indexOf(document.activeElement);
  e.preventDefault();
  all[(i + (e.shiftKey ? -1 : 1) + all.length) % all.length].focus();
});
document.addEventListener('focusin', (e) => { if (!bd.hidden && !dlg.contains(e.target)) focusables()[0].focus(); });
f.addEventListener('submit', (e) => { e.preventDefault(); const d = Object.fromEntries(new FormData(f)); record('subscribe', d); bd.hidden = true; });`,
);

/** A three-step wizard that validates on "Next" and shows errors as plain text beside the fields. */
export const WIZARD = page(
  'Sign up',
  `.err{color:#c00;display:block} .step[hidden]{display:none} .plan{border:1px solid #999;padding:8px;margin:4px;display:inline-block;cursor:pointer} .plan.sel{border-color:#06c;background:#def}`,
  `<h1>Create your account</h1><p id=progress>Step 1 of 3</p>
<div class=step id=s1><label>Email <input id=email autocomplete=off></label><span class=err id=e1></span><button type=button id=n1>Next</button></div>
<div class=step id=s2 hidden><p>Choose a plan</p><div class=plan data-plan=free>Free</div><div class=plan data-plan=pro>Pro · $9/month</div><span class=err id=e2></span><button type=button id=n2>Next</button></div>
<div class=step id=s3 hidden><p>Review: <span id=review></span></p><button type=button id=n3>Create account</button></div>`,
  `let plan = '';
const show = (n) => { for (const i of [1, 2, 3]) document.getElementById('s' + i).hidden = i !== n; document.getElementById('progress').textContent = 'Step ' + n + ' of 3'; };
document.getElementById('n1').onclick = () => {
  const v = document.getElementById('email').value.trim();
  document.getElementById('e1').textContent = !v ? 'Email is required.' : /^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$/i.test(v) ? '' : 'Enter a valid email address, like name@example.com.';
  if (!document.getElementById('e1').textContent) show(2);
};
document.querySelectorAll('.plan').forEach((p) => p.addEventListener('click', () => { document.querySelectorAll('.plan').forEach((q) => q.classList.toggle('sel', q === p)); plan = p.dataset.plan; }));
document.getElementById('n2').onclick = () => {
  document.getElementById('e2').textContent = plan ? '' : 'Please choose a plan to continue.';
  if (plan) { document.getElementById('review').textContent = document.getElementById('email').value + ' on ' + plan; show(3); }
};
document.getElementById('n3').onclick = () => record('signup', { email: document.getElementById('email').value, plan });`,
);

/** A virtualized list: 10,000 customers, only the rows in view (plus a few) exist in the DOM. */
export const VIRTUAL = page(
  'Customers',
  `#vp{height:400px;overflow-y:auto;border:1px solid #999;position:relative;width:420px} #spacer{position:relative} .row{position:absolute;left:0;right:0;height:32px;line-height:32px;padding:0 8px;border-bottom:1px solid #eee;box-sizing:border-box}`,
  `<h1>Customers</h1><div id=vp role=list aria-label=Customers><div id=spacer></div></div>`,
  `const N = 10000, H = 32, vp = document.getElementById('vp'), spacer = document.getElementById('spacer');
spacer.style.height = N * H + 'px';
const name = (i) => 'Customer ' + String(i).padStart(4, '0');
function draw() {
  const first = Math.max(0, Math.floor(vp.scrollTop / H) - 5), last = Math.min(N, Math.ceil((vp.scrollTop + vp.clientHeight) / H) + 5);
  let html = '';
  for (let i = first; i < last; i++) html += '<div class=row role=listitem style="top:' + i * H + 'px">' + name(i) + ' <button data-i=' + i + '>Open</button></div>';
  spacer.innerHTML = html;
}
vp.addEventListener('scroll', draw);
vp.addEventListener('click', (e) => { const b = e.target.closest('button[data-i]'); if (b) record('customer', name(+b.dataset.i)); });
draw();`,
);

/** A feed that loads 10 more stories from the server whenever its end scrolls into view. */
export const INFINITE = page(
  'Feed',
  `.story{height:120px;border-bottom:1px solid #ddd;padding:8px} #more{height:40px}`,
  `<h1>Latest stories</h1><div id=feed></div><div id=more>Loading more…</div>`,
  `let page = 0, loading = false;
const feed = document.getElementById('feed');
async function load() {
  if (loading || page >= 8) return;
  loading = true;
  const items = await (await fetch('/stories?page=' + (++page))).json();
  for (const t of items) { const d = document.createElement('div'); d.className = 'story'; d.innerHTML = '<h3>' + t + '</h3><button>Read ' + t + '</button>'; feed.append(d); }
  loading = false;
  if (page >= 8) document.getElementById('more').textContent = 'No more stories';
}
feed.addEventListener('click', (e) => { const b = e.target.closest('button'); if (b) record('story', b.textContent); });
new IntersectionObserver((es) => { if (es.some((x) => x.isIntersecting)) load(); }).observe(document.getElementById('more'));`,
);

/** A kanban board with HTML5 drag and drop: cards carry their id in the dataTransfer. */
export const KANBAN = page(
  'Board',
  `.col{display:inline-block;vertical-align:top;width:180px;min-height:200px;border:1px solid #999;margin:6px;padding:6px} .card{background:#ffd;border:1px solid #cc9;padding:8px;margin:4px 0;cursor:grab}`,
  `<h1>Sprint board</h1><div class=col data-col=todo><h2>To do</h2><div class=card draggable=true id=c1>Write report</div><div class=card draggable=true id=c2>Fix login bug</div></div><div class=col data-col=doing><h2>Doing</h2></div><div class=col data-col=done><h2>Done</h2><div class=card draggable=true id=c3>Plan sprint</div></div>`,
  `document.querySelectorAll('.card').forEach((c) => c.addEventListener('dragstart', (e) => { e.dataTransfer.setData('text/plain', c.id); e.dataTransfer.effectAllowed = 'move'; }));
document.querySelectorAll('.col').forEach((col) => {
  col.addEventListener('dragover', (e) => { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; });
  col.addEventListener('drop', (e) => {
    e.preventDefault();
    const card = document.getElementById(e.dataTransfer.getData('text/plain'));
    if (!card) return;
    col.append(card);
    record('board', Object.fromEntries([...document.querySelectorAll('.col')].map((c) => [c.dataset.col, [...c.querySelectorAll('.card')].map((x) => x.textContent)])));
  });
});`,
);

/** A sortable list on pointer events with pointer capture and an activation distance (as dnd-kit does). */
export const POINTER_SORT = page(
  'Playlist',
  `#list{list-style:none;padding:0;width:260px;touch-action:none} #list li{padding:10px;margin:4px 0;background:#eef;user-select:none;display:flex;justify-content:space-between} .grip{cursor:grab;padding:0 6px;color:#666}`,
  `<h1>Playlist</h1><ul id=list><li>Intro<span class=grip aria-label="Drag Intro">⠿</span></li><li>Verse<span class=grip aria-label="Drag Verse">⠿</span></li><li>Chorus<span class=grip aria-label="Drag Chorus">⠿</span></li><li>Bridge<span class=grip aria-label="Drag Bridge">⠿</span></li><li>Outro<span class=grip aria-label="Drag Outro">⠿</span></li></ul>`,
  `const list = document.getElementById('list');
let drag = null;
list.addEventListener('pointerdown', (e) => {
  const grip = e.target.closest('.grip');
  if (!grip) return;
  drag = { li: grip.closest('li'), x: e.clientX, y: e.clientY, active: false, id: e.pointerId };
  grip.setPointerCapture(e.pointerId);
});
list.addEventListener('pointermove', (e) => {
  if (!drag) return;
  if (!drag.active && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return; // activation distance
  drag.active = true;
  const over = [...list.children].find((li) => { const r = li.getBoundingClientRect(); return e.clientY >= r.top && e.clientY <= r.bottom; });
  if (!over || over === drag.li) return;
  const r = over.getBoundingClientRect();
  if (e.clientY < r.top + r.height / 2) over.before(drag.li); else over.after(drag.li);
});
list.addEventListener('pointerup', () => {
  if (drag?.active) record('playlist', [...list.children].map((li) => li.firstChild.textContent));
  drag = null;
});`,
);

/** A custom ARIA slider (keyboard and pointer) and a native range input. */
export const SLIDER = page(
  'Settings',
  `#track{position:relative;width:300px;height:8px;background:#ccc;margin:30px 0;cursor:pointer} #thumb{position:absolute;top:-8px;width:24px;height:24px;margin-left:-12px;border-radius:50%;background:#06c}`,
  `<h1>Sound</h1><div id=vol-label>Volume</div><div id=track><div id=thumb role=slider tabindex=0 aria-labelledby=vol-label aria-valuemin=0 aria-valuemax=100 aria-valuenow=50></div></div>
<label>Bass <input id=bass type=range min=0 max=10 value=5></label>
<p><button id=apply type=button>Apply</button></p>`,
  `const track = document.getElementById('track'), thumb = document.getElementById('thumb');
let v = 50;
const set = (n) => { v = Math.max(0, Math.min(100, Math.round(n))); thumb.style.left = v * 3 + 'px'; thumb.setAttribute('aria-valuenow', v); };
set(50);
thumb.addEventListener('keydown', (e) => {
  const step = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 }[e.key];
  if (step) { set(v + step); e.preventDefault(); }
  if (e.key === 'Home') set(0);
  if (e.key === 'End') set(100);
});
const fromX = (x) => set(((x - track.getBoundingClientRect().left) / 300) * 100);
let dragging = false;
track.addEventListener('pointerdown', (e) => { dragging = true; track.setPointerCapture(e.pointerId); fromX(e.clientX); thumb.focus(); e.preventDefault(); });
track.addEventListener('pointermove', (e) => { if (dragging) fromX(e.clientX); });
track.addEventListener('pointerup', () => { dragging = false; });
document.getElementById('apply').onclick = () => record('sound', { volume: v, bass: +document.getElementById('bass').value });`,
);

/** File inputs hidden behind a styled button (input.click()) and behind a label. */
export const UPLOAD = page(
  'Documents',
  `.btn{display:inline-block;background:#06c;color:#fff;padding:8px 14px;border-radius:4px;cursor:pointer} .vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`,
  `<h1>Your documents</h1><input type=file id=photo accept="image/*,.txt" style="display:none"><button type=button class=btn id=pick>Upload photo</button>
<p><input type=file id=cv class=vh><label for=cv class=btn>Attach CV</label></p><ul id=files></ul>`,
  `for (const id of ['photo', 'cv']) document.getElementById(id).addEventListener('change', async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  document.getElementById('files').insertAdjacentHTML('beforeend', '<li>' + f.name + '</li>');
  record('upload', { field: id, name: f.name, text: await f.text() });
});
document.getElementById('pick').onclick = () => document.getElementById('photo').click();`,
);

/** Forms sent by pressing Enter: a search box with no button (implicit submission), a sign-in form. */
export const ENTER = page(
  'Search',
  ``,
  `<h1>Library</h1><form action=/search><input name=q aria-label="Search books" placeholder="Title, author…"></form>
<h2>Sign in</h2><form method=post action=/submit><label>User <input name=user autocomplete=off></label> <label>PIN <input name=pin type=password></label> <button>Sign in</button></form>`,
);

/** A form inside an iframe (same origin or the second server); it posts to its own origin. */
export const FRAME_FORM = page(
  'Payment form',
  `body{margin:8px}`,
  `<form method=post action=/submit><label>Card holder <input name=holder autocomplete=off></label><br><label>Amount <input name=amount autocomplete=off></label><br><button>Pay now</button></form>`,
);

/** The form three times: same origin, another port of 127.0.0.1 (cross-origin, same site), another site (its own process). */
export const framesPage = (crossOrigin: string, crossSite: string) =>
  page(
    'Checkout',
    `iframe{width:420px;height:130px;border:1px solid #999;display:block;margin:6px 0}`,
    `<h1>Checkout</h1><p>Gift card</p><iframe src="/frame-form" title="Gift card"></iframe><p>Card payment</p><iframe src="${crossOrigin}/frame-form" title="Card payment"></iframe><p>Bank transfer</p><iframe src="${crossSite}/frame-form" title="Bank transfer"></iframe>`,
  );

/** A form inside an open shadow root, one field inside a second, nested shadow root. */
export const SHADOW = page(
  'Newsletter widget',
  ``,
  `<h1>Stay in touch</h1><signup-card></signup-card>`,
  `customElements.define('zip-field', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<label>Postcode <input id=zip autocomplete=off></label>'; }
  get value() { return this.shadowRoot.getElementById('zip').value; }
});
customElements.define('signup-card', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({ mode: 'open' });
    r.innerHTML = '<form><label>First name <input id=first autocomplete=off></label><br><label>Topic <select id=topic><option>News</option><option>Offers</option></select></label><br><zip-field></zip-field><br><button>Join</button></form>';
    r.querySelector('form').addEventListener('submit', (e) => { e.preventDefault(); record('shadow', { first: r.getElementById('first').value, topic: r.getElementById('topic').value, zip: r.querySelector('zip-field').value }); });
  }
});`,
);

/** A button enabled only after the terms checkbox is ticked, and then only after an async check. */
export const TERMS = page(
  'Register',
  ``,
  `<h1>Register</h1><label><input type=checkbox id=agree> I accept the terms and conditions</label><p><button id=create disabled>Create account</button></p>`,
  `document.getElementById('agree').addEventListener('change', (e) => { const on = e.target.checked; setTimeout(() => { document.getElementById('create').disabled = !on; }, 600); });
document.getElementById('create').onclick = () => record('register', 'created');`,
);

/** Toasts: one after a save request, one that appears a moment after a click and is gone 1.5 s later. */
export const TOAST = page(
  'Settings',
  `#toasts{position:fixed;right:10px;bottom:10px} .toast{background:#333;color:#fff;padding:10px;margin-top:6px;border-radius:4px}`,
  `<h1>Account settings</h1><label>Display name <input id=dn value="Sam" autocomplete=off></label> <button id=save>Save changes</button> <button id=copy>Copy profile link</button><div id=toasts></div>`,
  `const toast = (t, ms) => { const d = document.createElement('div'); d.className = 'toast'; d.textContent = t; document.getElementById('toasts').append(d); setTimeout(() => d.remove(), ms); };
document.getElementById('save').onclick = async () => { await fetch('/record', { method: 'POST', body: JSON.stringify({ kind: 'save', data: document.getElementById('dn').value }) }); toast('Your changes were saved', 2500); };
document.getElementById('copy').onclick = () => setTimeout(() => toast('Link copied to clipboard', 1500), 150);`,
);

/** A long page with a fixed header: the target sits far down; the model is scrolled past it. */
export const STICKY = page(
  'Product',
  `header{position:fixed;top:0;left:0;right:0;height:90px;background:#fff;border-bottom:2px solid #333;z-index:5} main{padding-top:100px} .filler{height:1500px}`,
  `<header><b>ShopCo</b> <a href="#cart">Cart</a></header><main><h1>Espresso machine</h1><div class=filler>Description…</div><p>Price: €199</p><button id=add>Add to cart</button><div class=filler>Reviews…</div></main>`,
  `document.getElementById('add').onclick = () => record('cart', 'espresso');`,
);

/** A search box that opens a search dialog with its own input when clicked (as DocSearch and many sites do). */
export const SEARCH_OVERLAY = page(
  'Docs',
  `#overlay{position:fixed;inset:0;background:rgba(0,0,0,.5)} #overlay[hidden]{display:none} #box{background:#fff;width:400px;margin:60px auto;padding:12px}`,
  `<header><input id=fake placeholder="Search the docs" aria-label="Search the docs" readonly></header><h1>Guide</h1><p>Welcome.</p>
<div id=overlay hidden><div id=box role=dialog aria-label=Search><input id=q aria-label="Search query" autocomplete=off><ul id=hits></ul></div></div>`,
  `const overlay = document.getElementById('overlay'), q = document.getElementById('q');
document.getElementById('fake').addEventListener('click', () => { overlay.hidden = false; q.focus(); });
q.addEventListener('input', () => { document.getElementById('hits').innerHTML = q.value ? '<li><a href="#r">Result for ' + q.value.replace(/</g, '') + '</a></li>' : ''; });
q.addEventListener('keydown', (e) => { if (e.key === 'Enter') record('docsearch', q.value); });`,
);

/** A data grid edited in place: double-click a cell, type, Enter; the listener sits on the table. */
export const GRID_EDIT = page(
  'Inventory',
  `td,th{border:1px solid #999;padding:6px 10px;min-width:80px} td input{width:80px}`,
  `<h1>Inventory</h1><table id=grid><thead><tr><th>Item</th><th>Stock</th></tr></thead><tbody><tr><td>Bolts</td><td data-k=bolts>120</td></tr><tr><td>Nuts</td><td data-k=nuts>80</td></tr></tbody></table>`,
  `document.getElementById('grid').addEventListener('dblclick', (e) => {
  const td = e.target.closest('td[data-k]');
  if (!td || td.querySelector('input')) return;
  const input = document.createElement('input');
  input.value = td.textContent;
  input.setAttribute('aria-label', 'Edit ' + td.dataset.k);
  td.textContent = '';
  td.append(input);
  input.focus();
  input.select();
  input.addEventListener('keydown', (k) => { if (k.key === 'Enter') { td.textContent = input.value; record('stock', { [td.dataset.k]: input.value }); } });
});`,
);

/** A rich editor in an iframe whose document is in design mode (as TinyMCE and CKEditor 4 do). */
export const FRAME_EDITOR_DOC = `<!doctype html><html><head><title>editor body</title></head><body><p>Old text</p><script>document.designMode = 'on';</script></body></html>`;
export const FRAME_EDITOR = page(
  'Compose',
  `iframe{width:500px;height:160px;border:1px solid #999}`,
  `<h1>Compose message</h1><iframe id=ed src="/editor-doc" title="Message body"></iframe><p><button id=send>Send</button></p>`,
  `document.getElementById('send').onclick = () => record('message', document.getElementById('ed').contentDocument.body.innerText.trim());`,
);

/** A searchable select (as react-select draws it): an input that filters options shown in a portal. */
export const SEARCH_SELECT = page(
  'Team',
  `.ctl{border:1px solid #888;width:240px;padding:4px} .ctl input{border:0;outline:0;width:100%} .menu{position:absolute;background:#fff;border:1px solid #888;width:248px} .menu div{padding:6px;cursor:default} .menu div.focus{background:#def}`,
  `<h1>Invite</h1><label id=lbl>Assignee</label><div class=ctl><span id=val></span><input id=who role=combobox aria-labelledby=lbl aria-autocomplete=list aria-expanded=false autocomplete=off></div><p><button id=go type=button>Invite</button></p>`,
  `const people = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov'];
const who = document.getElementById('who');
let menu = null, focus = 0, chosen = '';
const close = () => { menu?.remove(); menu = null; who.setAttribute('aria-expanded', 'false'); };
function show() {
  close();
  const hits = people.filter((p) => p.toLowerCase().includes(who.value.toLowerCase()));
  if (!hits.length) return;
  const r = who.parentElement.getBoundingClientRect();
  menu = document.createElement('div');
  menu.className = 'menu'; menu.id = 'who-list'; menu.setAttribute('role', 'listbox');
  menu.style.left = r.left + scrollX + 'px'; menu.style.top = r.bottom + scrollY + 'px';
  menu.innerHTML = hits.map((p, i) => '<div role=option id=o' + i + (i === focus ? ' class=focus' : '') + '>' + p + '</div>').join('');
  // react-select picks on mousedown, and keeps focus in the input.
  menu.addEventListener('mousedown', (e) => { e.preventDefault(); const o = e.target.closest('[role=option]'); if (o) pick(o.textContent); });
  document.body.append(menu);
  who.setAttribute('aria-expanded', 'true');
  who.setAttribute('aria-controls', 'who-list');
}
function pick(p) { chosen = p; document.getElementById('val').textContent = p; who.value = ''; close(); }
who.addEventListener('input', () => { focus = 0; show(); });
who.addEventListener('focus', show);
who.addEventListener('blur', close);
who.addEventListener('keydown', (e) => {
  if (!menu) return;
  const n = menu.children.length;
  if (e.key === 'ArrowDown') { focus = (focus + 1) % n; show(); e.preventDefault(); }
  if (e.key === 'Enter') { pick(menu.children[focus].textContent); e.preventDefault(); }
});
document.getElementById('go').onclick = () => record('invite', chosen);`,
);

/** A form checked by the browser itself (required, type=email, pattern): its messages are not page text. */
export const NATIVE_VALIDATION = page(
  'Contact us',
  `label{display:block;margin-top:8px}`,
  `<h1>Contact us</h1><form method=post action=/submit><label>Your email <input name=email type=email required></label><label>Order number <input name=order pattern="[A-Z]{2}[0-9]{4}" title="Two letters and four digits, like AB1234"></label><label>Message <textarea name=msg required></textarea></label><button>Send message</button></form>`,
);

/** Every page of the sweep by path. */
export const HARD_PAGES: Record<string, string> = {
  '/react': REACT,
  '/masks': MASKS,
  '/native': NATIVE,
  '/calendar': CALENDAR,
  '/combobox': COMBOBOX,
  '/multi': MULTI,
  '/editor': EDITOR,
  '/hovermenu': HOVER_MENU,
  '/modal': MODAL,
  '/wizard': WIZARD,
  '/virtual': VIRTUAL,
  '/infinite': INFINITE,
  '/kanban': KANBAN,
  '/pointersort': POINTER_SORT,
  '/slider': SLIDER,
  '/upload': UPLOAD,
  '/enter': ENTER,
  '/frame-form': FRAME_FORM,
  '/shadow': SHADOW,
  '/terms': TERMS,
  '/toast': TOAST,
  '/sticky': STICKY,
  '/docsearch': SEARCH_OVERLAY,
  '/grid': GRID_EDIT,
  '/compose': FRAME_EDITOR,
  '/editor-doc': FRAME_EDITOR_DOC,
  '/searchselect': SEARCH_SELECT,
  '/validate': NATIVE_VALIDATION,
};
