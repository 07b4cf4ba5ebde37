// The four tasks of npm run bench:script, each done three ways: call by call through our tools (the scripted
// agent of bench:tokens, which takes a snapshot only when a step needs one), as one browser_run_script call, and
// as one call of Playwright MCP's browser_run_code_unsafe. Each returns what it collected; bench/script.mjs
// checks it against the site's ground truth.
import { TaskFailed } from '../tokens/agent.mjs';
import { QUERIES } from './pages.mjs';

const field = /^(textbox|searchbox)$/i;

/** Call by call: what a careful model does with one tool call per step. */
export const CALL_BY_CALL = {
  // pagination: every row is the answer (the answer alone is ~900 tokens); one customer: the same pages, a short answer.
  async pagination(a) {
    await a.open('/orders');
    const rows = [];
    for (let p = 1; p <= 6; p++) {
      await a.call('snapshot');
      for (const m of a.last.matchAll(/^\| #(\d+) \| (\w+) \| \$(\d+)/gm)) rows.push([Number(m[1]), m[2], Number(m[3])]);
      if (p < 6) await a.click(/^link$/i, /^Next$/);
    }
    return rows;
  },
  async 'pagination, one customer'(a) {
    const rows = await CALL_BY_CALL.pagination(a);
    return rows.filter((r) => r[1] === 'Grace');
  },
  async 'bulk form'(a) {
    await a.open('/survey');
    for (let i = 1; i <= 30; i++) await a.type(field, new RegExp(`^Question ${i}$`), `answer ${i}`);
    await a.click(/^button$/i, /^Send$/);
    await a.expect(/received 30 answers/);
    return 30;
  },
  async 'table across pages'(a) {
    await a.open('/tickets');
    const statuses = {};
    for (let p = 1; p <= 3; p++) {
      await a.call('snapshot');
      const titles = [...a.view.values()].filter((e) => e.role === 'link' && /^Ticket \d+/.test(e.name)).map((e) => e.name);
      for (const title of titles) {
        await a.click(/^link$/i, new RegExp(`^${title}$`));
        const m = await a.see(/Status: (\w+)/);
        if (!m) throw new TaskFailed(`no status for ${title}`);
        statuses[/\d+/.exec(title)[0]] = m[1];
        await a.call('back');
      }
      if (p < 3) await a.click(/^link$/i, /^Next$/);
    }
    return statuses;
  },
  async 'search and collect'(a) {
    await a.open('/search');
    const found = {};
    for (const q of QUERIES) {
      await a.type(field, /^Search products/, q);
      await a.click(/^button$/i, /^Search$/);
      const m = await a.see(/link "([^"]+)"[^\n]*\n[^\n]*?\$(\d+)/);
      if (!m) throw new TaskFailed(`no result for ${q}`);
      found[q] = [m[1], Number(m[2])];
    }
    return found;
  },
};

/** Our code mode: one browser_run_script call per task (the script a model would write). */
export const OUR_SCRIPTS = {
  pagination: `await browser.navigate({ url: args.origin + '/orders' });
const rows = [];
for (;;) {
  const s = await browser.snapshot();
  for (const m of s.matchAll(/^\\| #(\\d+) \\| (\\w+) \\| \\$(\\d+)/gm)) rows.push([+m[1], m[2], +m[3]]);
  const next = refsOf(s, 'link', 'Next')[0];
  if (!next) return rows;
  await browser.click({ ref: next.ref });
}`,
  'pagination, one customer': `await browser.navigate({ url: args.origin + '/orders' });
const rows = [];
for (;;) {
  const s = await browser.snapshot();
  for (const m of s.matchAll(/^\\| #(\\d+) \\| Grace \\| \\$(\\d+)/gm)) rows.push([+m[1], 'Grace', +m[2]]);
  const next = refsOf(s, 'link', 'Next')[0];
  if (!next) return rows;
  await browser.click({ ref: next.ref });
}`,
  'bulk form': `await browser.navigate({ url: args.origin + '/survey' });
const s = await browser.snapshot();
const fields = refsOf(s, 'textbox');
for (const [i, f] of fields.entries()) await browser.type({ ref: f.ref, text: 'answer ' + (i + 1) });
await browser.click({ ref: refOf(s, 'button', 'Send') });
return /received (\\d+) answers/.exec(await browser.snapshot())?.[1];`,
  'table across pages': `await browser.navigate({ url: args.origin + '/tickets' });
const statuses = {};
for (;;) {
  const list = await browser.snapshot();
  for (const t of refsOf(list, 'link', /^Ticket \\d+/).map((x) => x.name)) {
    const s = await browser.snapshot();
    await browser.click({ ref: refOf(s, 'link', t) });
    const page = await browser.snapshot();
    statuses[/\\d+/.exec(t)[0]] = /Status: (\\w+)/.exec(page)[1];
    await browser.back();
  }
  const next = refsOf(await browser.snapshot(), 'link', 'Next')[0];
  if (!next) return statuses;
  await browser.click({ ref: next.ref });
}`,
  'search and collect': `await browser.navigate({ url: args.origin + '/search' });
const found = {};
for (const q of args.queries) {
  await browser.type({ ref: refOf(await browser.snapshot(), 'searchbox'), text: q, submit: true });
  const s = await browser.snapshot();
  const m = /link "([^"]+)"[^\\n]*\\n[^\\n]*?\\$(\\d+)/.exec(s);
  found[q] = m ? [m[1], +m[2]] : null;
}
return found;`,
};

/** Playwright MCP's run-code tool: the same tasks as one Playwright function each (`async (page) => …`). */
export const PLAYWRIGHT_CODE = {
  pagination: (origin) => `async (page) => {
  await page.goto('${origin}/orders');
  const rows = [];
  for (;;) {
    rows.push(...(await page.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)))).map(([id, c, t]) => [+id.slice(1), c, +t.slice(1)]));
    const next = page.getByRole('link', { name: 'Next' });
    if (!(await next.count())) return rows;
    await next.click();
    await page.waitForLoadState();
  }
}`,
  'pagination, one customer': (origin) => `async (page) => {
  await page.goto('${origin}/orders');
  const rows = [];
  for (;;) {
    rows.push(...(await page.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)))).filter(([, c]) => c === 'Grace').map(([id, c, t]) => [+id.slice(1), c, +t.slice(1)]));
    const next = page.getByRole('link', { name: 'Next' });
    if (!(await next.count())) return rows;
    await next.click();
    await page.waitForLoadState();
  }
}`,
  'bulk form': (origin) => `async (page) => {
  await page.goto('${origin}/survey');
  for (let i = 1; i <= 30; i++) await page.getByLabel('Question ' + i, { exact: true }).fill('answer ' + i);
  await page.getByRole('button', { name: 'Send' }).click();
  return /received (\\d+) answers/.exec(await page.locator('body').innerText())?.[1];
}`,
  'table across pages': (origin) => `async (page) => {
  await page.goto('${origin}/tickets');
  const statuses = {};
  for (;;) {
    const titles = await page.getByRole('link', { name: /^Ticket \\d+/ }).allTextContents();
    for (const t of titles) {
      await page.getByRole('link', { name: t, exact: true }).click();
      statuses[/\\d+/.exec(t)[0]] = /Status: (\\w+)/.exec(await page.locator('body').innerText())[1];
      await page.goBack();
    }
    const next = page.getByRole('link', { name: 'Next' });
    if (!(await next.count())) return statuses;
    await next.click();
    await page.waitForLoadState();
  }
}`,
  'search and collect': (origin) => `async (page) => {
  await page.goto('${origin}/search');
  const found = {};
  for (const q of ${JSON.stringify(QUERIES)}) {
    await page.getByRole('searchbox').fill(q);
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(/q=/);
    const first = page.locator('li').first();
    const text = await first.innerText();
    found[q] = [await first.locator('a').innerText(), +/\\$(\\d+)/.exec(text)[1]];
  }
  return found;
}`,
};
