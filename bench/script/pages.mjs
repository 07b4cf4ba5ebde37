// The local site of npm run bench:script: multi-page work that repeats (bench/script.mjs). Plain HTML on
// 127.0.0.1; the server keeps what forms sent, so a task's success is checked against what really arrived.
import { createServer } from 'node:http';

const page = (title, body) => `<!doctype html><meta charset=utf-8><title>${title}</title><body>${body}</body>`;
const NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Ken', 'Dennis', 'Margaret', 'Linus'];

/** 6 pages of 20 orders: the ground truth of the pagination task. */
export const ORDERS = Array.from({ length: 120 }, (_, i) => ({ id: 1001 + i, customer: NAMES[i % NAMES.length], total: ((i * 37) % 500) + 10 }));
/** 3 pages of 5 tickets, each with a page of its own holding its status. */
export const TICKETS = Array.from({ length: 15 }, (_, i) => ({ id: 501 + i, title: `Ticket ${501 + i}: ${['login fails', 'slow page', 'typo', 'crash', 'refund'][i % 5]}`, status: ['Open', 'Closed', 'Waiting'][(i * 7) % 3] }));
/** The catalogue the search page searches. */
export const PRODUCTS = ['Blue Widget', 'Red Gadget', 'Green Sprocket', 'Yellow Gizmo', 'Black Doohickey', 'White Thingamajig', 'Silver Widget', 'Golden Gadget'].map((name, i) => ({ name, price: 5 + i * 3 }));
export const QUERIES = ['widget', 'gadget', 'sprocket', 'gizmo', 'doohickey', 'thingamajig'];

function ordersPage(p) {
  const rows = ORDERS.slice((p - 1) * 20, p * 20).map((o) => `<tr><td>#${o.id}</td><td>${o.customer}</td><td>$${o.total}</td></tr>`).join('');
  return page(`Orders, page ${p}`, `<h1>Orders</h1><table><thead><tr><th>Order</th><th>Customer</th><th>Total</th></tr></thead><tbody>${rows}</tbody></table><nav>Page ${p} of 6 ${p > 1 ? `<a href="/orders?page=${p - 1}">Previous</a>` : ''} ${p < 6 ? `<a href="/orders?page=${p + 1}">Next</a>` : ''}</nav>`);
}

function ticketsPage(p) {
  const items = TICKETS.slice((p - 1) * 5, p * 5).map((t) => `<li><a href="/ticket/${t.id}">${t.title}</a></li>`).join('');
  return page(`Tickets, page ${p}`, `<h1>Support tickets</h1><ul>${items}</ul><nav>Page ${p} of 3 ${p < 3 ? `<a href="/tickets?page=${p + 1}">Next</a>` : ''}</nav>`);
}

const SURVEY = page('Survey', `<h1>Survey</h1><form action="/survey/done">${Array.from({ length: 30 }, (_, i) => `<p><label>Question ${i + 1} <input name=q${i + 1}></label></p>`).join('')}<button>Send</button></form>`);

export async function serveSite() {
  const surveys = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const send = (html, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    if (u.pathname === '/orders') return send(ordersPage(Math.min(6, Math.max(1, Number(u.searchParams.get('page') ?? 1)))));
    if (u.pathname === '/tickets') return send(ticketsPage(Math.min(3, Math.max(1, Number(u.searchParams.get('page') ?? 1)))));
    const ticket = /^\/ticket\/(\d+)$/.exec(u.pathname);
    if (ticket) {
      const t = TICKETS.find((x) => x.id === Number(ticket[1]));
      return t ? send(page(t.title, `<h1>${t.title}</h1><p>Status: ${t.status}</p><p>Reported by a customer. Steps to reproduce are in the thread below.</p>`)) : send('no', 404);
    }
    if (u.pathname === '/survey') return send(SURVEY);
    if (u.pathname === '/survey/done') {
      surveys.push(Object.fromEntries(u.searchParams));
      return send(page('Thanks', `<p>Thanks! We received ${[...u.searchParams.values()].filter(Boolean).length} answers.</p>`));
    }
    if (u.pathname === '/search') {
      const q = (u.searchParams.get('q') ?? '').toLowerCase();
      const hits = q ? PRODUCTS.filter((p) => p.name.toLowerCase().includes(q)) : [];
      const list = hits.map((p) => `<li><a href="/product/${encodeURIComponent(p.name)}">${p.name}</a> — $${p.price}</li>`).join('');
      return send(page(q ? `Search: ${q}` : 'Search', `<h1>Search</h1><form action="/search" role=search><label>Search products <input type=search name=q value="${q}"></label><button>Search</button></form>${q ? `<p>${hits.length} results for ${q}</p><ul>${list}</ul>` : ''}`));
    }
    send('not found', 404);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, surveys, close: () => new Promise((r) => server.close(r)) };
}
