// Widget pages written for these tests: the shapes of real web apps that used to hide items from
// the snapshot (clickable containers with delegated listeners, CSS-drawn state, SVG glyphs, long
// values). Each page reports what a person's action did in `#out`, so tests check the page's reaction.

const page = (title: string, style: string, body: string, script: string) =>
  `<!doctype html><html><head><meta charset=utf-8><title>${title}</title><style>body{font:16px sans-serif;margin:20px} ${style}</style></head><body>${body}<p id=out></p><script>const out = (t) => document.getElementById('out').textContent = t;\n${script}</script></body></html>`;

/** A list reordered by pressing on an item and moving the mouse: the listener sits on the list. */
export const SORTABLE = page(
  'Sortable',
  `#list{list-style:none;padding:0;width:220px} #list li{padding:10px;margin:4px 0;background:#eef;cursor:grab;user-select:none} #list li.dragging{opacity:.5}`,
  `<h1>Priorities</h1><ul id=list><li>Apple</li><li>Banana</li><li>Cherry</li><li>Damson</li><li>Elderberry</li></ul>`,
  `const list = document.getElementById('list');
let dragged = null;
list.addEventListener('mousedown', (e) => { dragged = e.target.closest('li'); if (dragged) dragged.classList.add('dragging'); e.preventDefault(); });
document.addEventListener('mousemove', (e) => {
  if (!dragged) return;
  const over = document.elementFromPoint(e.clientX, e.clientY)?.closest('#list li');
  if (!over || over === dragged) return;
  const r = over.getBoundingClientRect();
  if (e.clientY < r.top + r.height / 2) over.before(dragged); else over.after(dragged);
});
document.addEventListener('mouseup', () => {
  if (!dragged) return;
  dragged.classList.remove('dragging');
  dragged = null;
  out('Order: ' + [...list.children].map((li) => li.textContent).join(', '));
});`,
);

/** Suggestions under a search box; one delegated click listener on the suggestion box. */
export const AUTOCOMPLETE = page(
  'Autocomplete',
  `#sug{border:1px solid #999;width:260px;cursor:pointer} #sug div{padding:6px} #sug div:hover{background:#ddf} #sug[hidden]{display:none}`,
  `<label>City <input id=city autocomplete=off></label><div id=sug hidden></div>`,
  `const cities = ['Paris', 'Parma', 'Paraguay City', 'Lyon', 'Porto'];
const input = document.getElementById('city');
const sug = document.getElementById('sug');
input.addEventListener('input', () => {
  const q = input.value.toLowerCase();
  const hits = q ? cities.filter((c) => c.toLowerCase().startsWith(q)) : [];
  sug.innerHTML = hits.map((c) => '<div class=s><b>' + c.slice(0, q.length) + '</b>' + c.slice(q.length) + '</div>').join('');
  sug.hidden = !hits.length;
});
sug.addEventListener('click', (e) => {
  const s = e.target.closest('.s');
  if (!s) return;
  input.value = s.textContent;
  sug.hidden = true;
  out('Chosen: ' + s.textContent);
});`,
);

/** A dropdown menu with a nested submenu; clicks handled on the menu element. */
export const MENU = page(
  'Menu',
  `.menu{list-style:none;padding:4px;margin:0;border:1px solid #888;width:160px;background:#fff;cursor:default} .menu li{padding:6px} .menu li:hover{background:#eef} .menu[hidden]{display:none} .sub{position:relative} .sub > .menu{position:absolute;left:150px;top:0}`,
  `<button id=open>Actions</button><ul class=menu id=menu hidden><li data-act=copy>Copy</li><li class=sub data-act=move><span>Move to</span><ul class=menu id=submenu hidden><li data-act=archive>Archive</li><li data-act=trash>Trash</li></ul></li><li data-act=rename>Rename</li></ul>`,
  `const menu = document.getElementById('menu');
document.getElementById('open').onclick = () => { menu.hidden = !menu.hidden; };
menu.addEventListener('click', (e) => {
  const li = e.target.closest('li');
  if (!li) return;
  if (li.dataset.act === 'move') { document.getElementById('submenu').hidden = false; e.stopPropagation(); return; }
  out('Did: ' + li.dataset.act);
  menu.hidden = true;
});`,
);

/** A folder tree: collapsed folders keep their children in the DOM, hidden; one listener on the tree. */
export const TREE = page(
  'Files',
  `.tree,.tree ul{list-style:none;padding-left:18px;margin:0} .tree li > span{cursor:pointer;padding:2px 4px;display:inline-block} .tree li.folder > span::before{content:'▸ '} .tree li.folder.open > span::before{content:'▾ '} .tree li.folder:not(.open) > ul{display:none} .tree .sel{background:#cde}`,
  `<h2>Folders</h2><ul class=tree id=tree>
<li class=folder><span>Documents</span><ul><li class=folder><span>Invoices</span><ul><li><span>march.pdf</span></li></ul></li><li><span>notes.txt</span></li></ul></li>
<li class=folder><span>Photos</span><ul><li><span>beach.jpg</span></li></ul></li>
<li class=folder><span>Empty</span><ul></ul></li>
<li><span>readme.md</span></li></ul>`,
  `document.getElementById('tree').addEventListener('click', (e) => {
  const span = e.target.closest('span');
  if (!span) return;
  const li = span.parentElement;
  if (li.classList.contains('folder')) { li.classList.toggle('open'); out('Toggled: ' + span.textContent); }
  else { document.querySelectorAll('.sel').forEach((x) => x.classList.remove('sel')); span.classList.add('sel'); out('Opened: ' + span.textContent); }
});`,
);

/** Inbox rows with sender and subject spans and icon buttons; a delegated listener on the inbox. */
export const INBOX = page(
  'Inbox',
  `.inbox{width:520px} .row{display:flex;gap:10px;padding:8px;border-bottom:1px solid #ddd;cursor:pointer} .sender{width:100px;font-weight:bold} .subject{flex:1} .icon{width:18px;height:18px;display:inline-block;background-size:contain} .star{background-image:url(/img/star-outline.svg)} .star.on{background-image:url(/img/star-filled.svg)} .trash{background-image:url(/img/trash.svg)}
.toolbar{display:flex;gap:8px;margin:10px 0} .tb{width:24px;height:24px;display:inline-block;cursor:pointer;background-size:contain} .reply{background-image:url(/img/reply.svg)} .forward{background-image:url(/img/forward.svg)}`,
  `<div class=toolbar id=toolbar><span class="tb reply" data-act=reply></span><span class="tb forward" data-act=forward></span></div>
<div class=inbox id=inbox>
<div class=row data-id=1><span class=sender>Alice</span><span class=subject>Quarterly report</span><span class="icon star"></span><span class="icon trash"></span></div>
<div class=row data-id=2><span class=sender>Bob</span><span class=subject>Lunch on Friday?</span><span class="icon star"></span><span class="icon trash"></span></div>
<div class=row data-id=3><span class=sender>Carol</span><span class=subject>Invoice 4411</span><span class="icon star"></span><span class="icon trash"></span></div>
</div>`,
  `document.getElementById('inbox').addEventListener('click', (e) => {
  const row = e.target.closest('.row');
  if (!row) return;
  const who = row.querySelector('.sender').textContent;
  if (e.target.classList.contains('star')) { e.target.classList.toggle('on'); out('Starred: ' + who); return; }
  if (e.target.classList.contains('trash')) { row.remove(); out('Deleted: ' + who); return; }
  out('Opened: ' + row.querySelector('.subject').textContent);
});
document.getElementById('toolbar').addEventListener('click', (e) => { const b = e.target.closest('.tb'); if (b) out('Toolbar: ' + b.dataset.act); });`,
);

/** A long mail list (bigger than half the viewport) whose rows also hold links; one listener on the list. */
export const MAIL_LIST = page(
  'Mail',
  `#mail{list-style:none;padding:0;margin:0} #mail li{padding:14px;border-bottom:1px solid #ddd;cursor:pointer} #mail a{margin-left:12px}`,
  `<ul id=mail>${Array.from({ length: 14 }, (_, i) => `<li data-n=${i + 1}><b>Sender ${i + 1}</b> Subject number ${i + 1}<a href="#m${i + 1}">permalink</a></li>`).join('')}</ul>`,
  `document.getElementById('mail').addEventListener('click', (e) => { const li = e.target.closest('li'); if (li && e.target.localName !== 'a') out('Opened: message ' + li.dataset.n); });`,
);

/** Tiny SVG icons the inbox page draws with background images. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="gray"/></svg>`;

/** A board whose marks are drawn by CSS only: pseudo-element content and a background image. */
export const GRID = page(
  'Board',
  `#board{display:grid;grid-template-columns:repeat(3,48px);gap:4px} #board div{height:48px;background:#eee;cursor:pointer} #board .x::before{content:'X';font:bold 32px sans-serif} #board .flag{background:#eee url(/img/flag.svg) center/60% no-repeat}`,
  `<h2>Board</h2><div id=board><div class=x></div><div></div><div class=flag></div><div></div><div class=x></div><div></div><div></div><div></div><div></div></div>`,
  `const board = document.getElementById('board');
board.addEventListener('click', (e) => {
  const cell = e.target.closest('#board > div');
  if (!cell) return;
  const i = [...board.children].indexOf(cell);
  if (!cell.className) { cell.className = 'x'; out('Marked cell ' + (i + 1)); } else out('Cell ' + (i + 1) + ' is taken');
});`,
);

/** SVG glyphs and shapes: a keypad of digits drawn as SVG text, clickable shapes, a standalone glyph. */
export const SVG = page(
  'Shapes',
  `.key{display:inline-block;cursor:pointer;margin:2px} svg{vertical-align:middle}`,
  `<p>Grade: <svg width=24 height=24><text x=4 y=18 font-size=18>B</text></svg></p>
<div id=pad>${[1, 2, 3].map((n) => `<span class=key data-n=${n}><svg width=32 height=32><rect width=32 height=32 fill="#ddd"/><text x=10 y=22 font-size=18>${n}</text></svg></span>`).join('')}</div>
<svg id=shapes width=200 height=60><circle id=red cx=30 cy=30 r=20 fill=red /><rect id=blue x=70 y=10 width=40 height=40 fill=blue /><polygon id=tri points="150,10 180,50 120,50" fill=green /></svg>`,
  `document.getElementById('pad').addEventListener('click', (e) => { const k = e.target.closest('.key'); if (k) out('Key ' + k.dataset.n); });
for (const s of document.querySelectorAll('#shapes > *')) s.addEventListener('click', () => out('Shape ' + s.id));`,
);

/** A textarea whose value is longer than the snapshot shows. */
export const LONG_TEXT = 'Dear team, ' + 'the quarterly numbers are in and they look fine overall; '.repeat(5) + 'the secret word at the very end is PELICAN.';
export const TEXTAREA = page('Notes', `textarea{width:400px;height:80px}`, `<label>Notes <textarea id=notes></textarea></label>`, `document.getElementById('notes').value = ${JSON.stringify(LONG_TEXT)};`);

/** alert() then confirm() while the page loads. */
export const DIALOGS = `<!doctype html><title>Dialogs</title><p>Loading…</p><script>alert('Welcome!'); const ok = confirm('Continue?'); document.body.insertAdjacentHTML('beforeend', '<p id=out>' + (ok ? 'accepted' : 'dismissed') + '</p>');</script>`;

/** Every widget page by path, plus the icons they draw. */
export function widgetRoutes(): Record<string, string | ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void)> {
  const svg = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    res.end(ICON_SVG);
  };
  return {
    '/sortable': SORTABLE,
    '/autocomplete': AUTOCOMPLETE,
    '/menu': MENU,
    '/tree': TREE,
    '/inbox': INBOX,
    '/mail': MAIL_LIST,
    '/grid': GRID,
    '/svg': SVG,
    '/textarea': TEXTAREA,
    '/dialogs': DIALOGS,
    '/img/star-outline.svg': svg,
    '/img/star-filled.svg': svg,
    '/img/trash.svg': svg,
    '/img/reply.svg': svg,
    '/img/forward.svg': svg,
    '/img/flag.svg': svg,
  };
}
