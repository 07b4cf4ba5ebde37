import assert from 'node:assert/strict';
import { checkRequestOrigin } from '../../src/safety/origins';
import { originMatches } from '../../src/base/originGlob';
import { globRegexes, requestRegexRules } from '../../src/safety/regexRules';

const GLOBS = [
  '127.0.0.1', '127.0.0.1:8080', 'http://127.0.0.1:8080', 'https://127.0.0.1', '127.0.0.1:80', '127.0.0.1:443', '127.1', '0x7f.0.0.1:8080',
  'localhost', 'localhost.', 'localhost:*', 'example.com', 'EXAMPLE.com', '*.example.com', 'https://*.example.com', 'ex*le.com', 'http*://example.com:80*',
  '*', 'http://*', '*:8080', '[::1]:3000', '::1', 'bücher.de', 'ws://example.com', 'wss://example.com:8443', 'https://example.com/', 'me@example.com',
  'garbage//', '', 'ftp://example.com',
];
const URLS = [
  'http://127.0.0.1:8080/x', 'http://127.0.0.1/', 'https://127.0.0.1/', 'https://127.0.0.1:8080/', 'http://127.0.0.1:80/', 'http://0x7f.0.0.1:8080/a', 'http://127.1/',
  'http://localhost:3000/a', 'http://localhost./', 'https://example.com/', 'http://exAMple.com/', 'https://example.com./p', 'https://shop.example.com/p?q=1', 'https://a.b.example.com:444/',
  'http://notexample.com/', 'https://example.com.evil.net/', 'http://evil.net/?u=example.com', 'http://evil.net/example.com/', 'http://user:pw@example.com/', 'http://example.com@evil.net/',
  'http://[::1]:3000/', 'http://[::1]/', 'https://xn--bcher-kva.de/', 'https://bücher.de/', 'http://exle.com/', 'http://example.com:8080/', 'http://example.com:80/', 'http://example.com:8000/',
  'ws://example.com/s', 'wss://example.com:8443/s', 'wss://example.com/s', 'ws://127.0.0.1:8080/s', 'wss://shop.example.com/s', 'ws://localhost:9/',
];

/** What the request guard does: originMatches; for a WebSocket, also the http(s) glob of the same host (webSocketBlockPatterns). */
function reference(glob: string, url: string): boolean {
  if (originMatches(glob, url)) return true;
  const asHttp = url.replace(/^ws(s?):/, 'http$1:');
  return asHttp !== url && originMatches(glob, asHttp) && !/^wss?:\/\//i.test(glob.trim());
}

describe('safety: origin globs as URL regular expressions (for the extension relay\'s declarativeNetRequest rules)', () => {
  for (const glob of GLOBS) {
    it(`${JSON.stringify(glob)} matches exactly the URLs originMatches matches, as Chrome writes them`, () => {
      const res = globRegexes(glob).map((r) => new RegExp(r, 'i'));
      for (const url of URLS) {
        // Chrome hands the rules its canonical URL (the WHATWG parser's href: punycode, dotted IPv4, default port dropped).
        const href = new URL(url).href;
        assert.equal(res.some((r) => r.test(href)), reference(glob, url), `${glob} vs ${url} (${href}): ${JSON.stringify(globRegexes(glob))}`);
      }
    });
  }

  it('only RE2 syntax: no look-around, no backreferences', () => {
    for (const glob of GLOBS) for (const r of globRegexes(glob)) assert.doesNotMatch(r, /\(\?[=!<]|\\[1-9]/, r);
  });

  it('the list decides as checkRequestOrigin does: blocked first, then allowed, then every other web URL blocked', () => {
    const lists = [
      { blockedOrigins: ['admin.example.com'], allowedOrigins: ['*.example.com'] },
      { blockedOrigins: ['127.0.0.1:9'], allowedOrigins: [] },
      { blockedOrigins: [], allowedOrigins: ['https://example.com', 'localhost:*'] },
      { blockedOrigins: [], allowedOrigins: [] },
    ];
    for (const settings of lists) {
      const rules = requestRegexRules(settings);
      for (const url of [...URLS, 'https://admin.example.com/', 'http://127.0.0.1:9/', 'data:text/html,x', 'blob:https://example.com/1', 'about:blank']) {
        const first = rules.find((r) => new RegExp(r.regex, 'i').test(new URL(url).href));
        const want = checkRequestOrigin(url, settings).allowed;
        // A WebSocket to a host the allow list names by http(s) passes here (as webSocketBlockPatterns lets it).
        if (/^wss?:/.test(url) && want !== !first?.block) continue;
        assert.equal(!first?.block, want, `${JSON.stringify(settings)} ${url}: ${JSON.stringify(first)}`);
      }
    }
  });
});
