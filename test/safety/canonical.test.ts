import assert from 'node:assert/strict';
import { canonicalHost, canonicalUrl } from '../../src/base/canonical';
import { checkRequestOrigin, interceptPatterns } from '../../src/safety/origins';
import { originMatches, originOf } from '../../src/base/originGlob';

describe('canonical origins', () => {
  // Each spelling of one host must be matched by a rule written in any other spelling.
  const loopback4 = ['http://127.0.0.1:8080/', 'http://LOCALHOST-not:1/'.replace('LOCALHOST-not:1', '127.0.0.1:8080'), 'http://127.1:8080/', 'http://0x7f.0.0.1:8080/', 'http://0x7F000001:8080/', 'http://2130706433:8080/', 'http://0177.0.0.1:8080/', 'http://127.0.1:8080/', 'http://user:pw@127.0.0.1:8080/x'];
  for (const url of loopback4) {
    it(`${url} is 127.0.0.1:8080`, () => {
      assert.equal(originOf(url), 'http://127.0.0.1:8080');
      for (const glob of ['127.0.0.1', '127.1', '0x7f.0.0.1', '2130706433', 'http://127.0.0.1:8080', '127.0.0.1:8080', '127.0.0.1:*']) {
        assert.ok(originMatches(glob, url), `${glob} should match ${url}`);
      }
      assert.ok(!originMatches('127.0.0.2', url));
      assert.ok(!originMatches('127.0.0.1:8081', url));
    });
  }

  for (const url of ['http://localhost:3000/', 'http://LOCALHOST:3000/', 'http://localhost.:3000/', 'http://LocalHost..:3000/', 'http://me@localhost.:3000/a?b#c']) {
    it(`${url} is localhost:3000`, () => {
      assert.equal(originOf(url), 'http://localhost:3000');
      for (const glob of ['localhost', 'LOCALHOST', 'localhost.', 'localhost:3000', 'http://localhost.:3000', '*.localhost']) {
        assert.ok(originMatches(glob, url), `${glob} should match ${url}`);
      }
    });
  }

  it('IPv6 with and without brackets, compressed and not', () => {
    for (const url of ['http://[::1]:9000/', 'http://[0:0:0:0:0:0:0:1]:9000/', 'http://[0::1]:9000/']) {
      assert.equal(originOf(url), 'http://[::1]:9000');
      for (const glob of ['[::1]', '::1', '[::1]:9000', 'http://[::1]:9000', '[0:0:0:0:0:0:0:1]']) assert.ok(originMatches(glob, url), `${glob} vs ${url}`);
      assert.ok(!originMatches('[::1]:9001', url));
    }
  });

  it('IDN and punycode are one host', () => {
    for (const url of ['https://bücher.example/', 'https://xn--bcher-kva.example/', 'https://BÜCHER.example./']) {
      assert.equal(originOf(url), 'https://xn--bcher-kva.example');
      for (const glob of ['bücher.example', 'BÜCHER.EXAMPLE', 'xn--bcher-kva.example', '*.bücher.example', 'https://bücher.example']) assert.ok(originMatches(glob, url), `${glob} vs ${url}`);
    }
    assert.ok(originMatches('*.bücher.example', 'https://shop.xn--bcher-kva.example/'));
  });

  it('default ports are explicit for port globs and hidden in origins', () => {
    assert.equal(originOf('https://a.example:443/'), 'https://a.example');
    assert.equal(originOf('http://a.example:80/'), 'http://a.example');
    assert.ok(originMatches('a.example:443', 'https://a.example/'));
    assert.ok(originMatches('a.example:80', 'ws://a.example/'));
    assert.ok(!originMatches('a.example:80', 'https://a.example/'));
    assert.equal(canonicalUrl('wss://A.example/x')?.port, '443');
  });

  it('scheme globs still count, subdomain globs do not cross label boundaries', () => {
    assert.ok(originMatches('https://*.example.com', 'https://a.b.example.com/'));
    assert.ok(!originMatches('https://*.example.com', 'http://a.example.com/'));
    assert.ok(!originMatches('*.example.com', 'https://badexample.com/'));
    assert.ok(!originMatches('example.com', 'https://example.com.evil.net/'));
  });

  it('request checks: other schemes carry no origin, rules name the rule', () => {
    const s = { blockedOrigins: ['127.1:8080'], allowedOrigins: [] };
    assert.deepEqual(checkRequestOrigin('data:text/plain,x', s), { allowed: true });
    assert.deepEqual(checkRequestOrigin('blob:http://127.0.0.1:8080/abc', s), { allowed: true });
    assert.equal(checkRequestOrigin('http://2130706433:8080/x', s).rule, 'blocked-origin');
    assert.equal(checkRequestOrigin('ws://127.0.0.1:8080/sock', s).rule, 'blocked-origin');
    assert.equal(checkRequestOrigin('http://127.0.0.1:9/', { blockedOrigins: [], allowedOrigins: ['localhost.'] }).rule, 'not-allowed-origin');
    assert.ok(checkRequestOrigin('http://LOCALHOST:9/', { blockedOrigins: [], allowedOrigins: ['localhost.'] }).allowed);
  });

  it('canonicalHost drops trailing dots and brackets', () => {
    assert.equal(canonicalHost('Example.COM.'), 'example.com');
    assert.equal(canonicalHost('[::1]'), '::1');
  });

  it('interception patterns: a block list pauses only URLs holding a blocked host (canonical), an allow list everything', () => {
    assert.deepEqual(interceptPatterns({ blockedOrigins: ['*.Bücher.example', 'http://0x7f.1:8080', '[0::1]:3000', 'LOCALHOST.', 'user@x.test?'], allowedOrigins: [] }), ['*xn--bcher-kva.example*', '*127.0.0.1*', '*[::1]*', '*localhost*', '*x.test*']);
    assert.deepEqual(interceptPatterns({ blockedOrigins: ['evil.test'], allowedOrigins: ['good.test'] }), ['*']);
    assert.deepEqual(interceptPatterns({ blockedOrigins: ['*'], allowedOrigins: [] }), ['*']);
    assert.deepEqual(interceptPatterns({ blockedOrigins: ['*.*'], allowedOrigins: [] }), ['*']);
  });
});
