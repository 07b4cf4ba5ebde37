// The local site the token benchmark's tasks run on: small pages a person meets every day (a login, a
// search with results, a contact form, a menu button, a paginated table), plain HTML and a little script,
// served on 127.0.0.1. Each task ends on text the scripted agent checks ("Welcome, ada").
import { createServer } from 'node:http';

const page = (title, body) => `<!doctype html><html lang=en><meta charset=utf-8><title>${title}</title>
<style>body{font:16px sans-serif;margin:2em} [role=menu]{border:1px solid #999;padding:4px;width:10em}
[role=menuitem]{display:block;padding:4px;cursor:pointer} td,th{padding:2px 8px}</style>
<header><a href="/">Acme</a> · <a href="/search">Search</a> · <a href="/contact">Contact</a></header>
<main>${body}</main><footer>© Acme 2025 · <a href="/privacy">Privacy</a></footer></html>`;

const PRODUCTS = ['Blue Widget', 'Red Widget', 'Green Gadget', 'Blue Gizmo', 'Yellow Widget', 'Steel Bolt'];
const slug = (s) => s.toLowerCase().replace(/\W+/g, '-');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const ORDERS = Array.from({ length: 45 }, (_, i) => ({ id: 1001 + i, customer: ['Ada', 'Grace', 'Linus', 'Ken', 'Barbara'][i % 5], status: ['Shipped', 'Pending', 'Delivered'][i % 3] }));

const routes = {
  '/': () => page('Acme', '<h1>Acme</h1><p>Tools and parts since 1970.</p><a href="/login">Log in</a>'),
  '/login': () =>
    page('Log in · Acme', `<h1>Log in</h1><form method=post action="/session">
<label>Username <input name=user autocomplete=username></label><br>
<label>Password <input name=pass type=password autocomplete=current-password></label><br>
<label><input type=checkbox name=remember> Remember me</label><br>
<button>Log in</button></form><p><a href="/reset">Forgot your password?</a></p>`),
  '/home': (q) => page('Home · Acme', `<h1>Welcome, ${esc(q.get('user') ?? '')}</h1><p>You have 2 new messages.</p><nav><a href="/orders">Orders</a> <a href="/logout">Log out</a></nav>`),
  '/search': (q) => {
    const term = (q.get('q') ?? '').toLowerCase();
    const hits = term ? PRODUCTS.filter((p) => p.toLowerCase().includes(term)) : [];
    const list = term ? `<h2>${hits.length} results for “${esc(term)}”</h2><ul>${hits.map((p) => `<li><a href="/product/${slug(p)}">${p}</a> — in stock</li>`).join('')}</ul>` : '';
    return page('Search · Acme', `<h1>Search</h1><form role=search action="/search"><input type=search name=q aria-label="Search products" value="${esc(q.get('q') ?? '')}"> <button>Search</button></form>${list}`);
  },
  '/contact': () =>
    page('Contact · Acme', `<h1>Contact us</h1><form id=f>
<label>Name <input name=name required></label><br>
<label>Email <input name=email type=email required></label><br>
<label>Topic <select name=topic><option>General</option><option>Billing</option><option>Shipping</option></select></label><br>
<label>Message <textarea name=msg rows=3></textarea></label><br>
<label><input type=checkbox name=agree required> I agree to the terms</label><br>
<button>Send</button></form><p id=out role=status></p>
<script>f.onsubmit = (e) => { e.preventDefault(); const d = new FormData(f); f.hidden = true;
out.textContent = 'Thanks, ' + d.get('name') + '! We got your message about ' + d.get('topic') + '.'; };</script>`),
  '/files': () =>
    page('Files · Acme', `<h1>Files</h1><table><tr><th>Name</th><th>Size</th><th></th></tr>
<tr><td>report.pdf</td><td>2 MB</td><td><button id=mb aria-haspopup=menu aria-expanded=false aria-controls=m>Actions</button>
<div id=m role=menu hidden><span role=menuitem tabindex=-1>Rename</span><span role=menuitem tabindex=-1>Duplicate</span><span role=menuitem tabindex=-1>Delete</span></div></td></tr>
<tr><td>notes.txt</td><td>4 KB</td><td></td></tr></table><p id=out role=status></p>
<script>mb.onclick = () => { const open = m.hidden; m.hidden = !open; mb.setAttribute('aria-expanded', String(open)); };
for (const it of m.children) it.onclick = () => { m.hidden = true; mb.setAttribute('aria-expanded', 'false'); out.textContent = it.textContent + 'd report.pdf'; };</script>`),
  '/orders': () =>
    page('Orders · Acme', `<h1>Orders</h1><table><thead><tr><th>Order</th><th>Customer</th><th>Status</th></tr></thead><tbody id=rows></tbody></table>
<p><button id=prev>Previous</button> <span id=at></span> <button id=next>Next</button></p>
<script>const O = ${JSON.stringify(ORDERS)}; let p = 0; const N = 10;
function show() { rows.innerHTML = O.slice(p * N, p * N + N).map((o) => '<tr><td>Order #' + o.id + '</td><td>' + o.customer + '</td><td>' + o.status + '</td></tr>').join('');
at.textContent = 'Page ' + (p + 1) + ' of ' + Math.ceil(O.length / N); prev.disabled = p === 0; next.disabled = (p + 1) * N >= O.length; }
prev.onclick = () => { p--; show(); }; next.onclick = () => { p++; show(); }; show();</script>`),
};
for (const p of PRODUCTS) routes[`/product/${slug(p)}`] = () => page(`${p} · Acme`, `<h1>${p}</h1><p>Price: $${(p.length * 3.5).toFixed(2)}</p><button>Add to cart</button>`);

/** Serves the site on 127.0.0.1; resolves to its origin and a close function. */
export async function serveSite() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST' && url.pathname === '/session') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const user = new URLSearchParams(body).get('user') ?? '';
        res.writeHead(303, { location: `/home?user=${encodeURIComponent(user)}` }).end();
      });
      return;
    }
    // A site has its icon: no failed request in every result that is not the task's.
    if (url.pathname === '/favicon.ico') return res.writeHead(204).end();
    const route = routes[url.pathname];
    res.writeHead(route ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(route ? route(url.searchParams) : page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
