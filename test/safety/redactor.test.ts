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

  it('values shorter than 3 characters are left alone (they would shred every text)', () => {
    assert.equal(redactText('a b c ab', [['ab', 'X']]), 'a b c ab');
  });
});
