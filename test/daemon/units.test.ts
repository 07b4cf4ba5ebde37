import assert from 'node:assert/strict';
import { describeSession } from '../../src/daemon/present';
import { LineReader } from '../../src/daemon/protocol';
import { browserKey } from '../../src/daemon/server';
import { TabScope } from '../../src/session/tabScope';

describe('daemon: pure parts', () => {
  it('LineReader reassembles lines split across chunks and skips empty ones', () => {
    const lines: string[] = [];
    const r = new LineReader((l) => lines.push(l));
    for (const chunk of ['{"id":1', ',"result":{}}\n{"me', 'thod":"X"}\n\n', '{"id":2}\n']) r.push(chunk);
    assert.deepEqual(lines, ['{"id":1,"result":{}}', '{"method":"X"}', '{"id":2}']);
  });

  it('LineReader skips a line longer than its limit without holding it, and reads on', () => {
    const lines: string[] = [];
    const heads: string[] = [];
    const r = new LineReader((l) => lines.push(l), 10, (h) => heads.push(h));
    for (const chunk of ['{"id":7,"method":"X","params":"', 'y'.repeat(50), 'zz"}\n{"id":8}\n', '0123456789ABC\n', 'ok\n']) r.push(chunk);
    assert.deepEqual(lines, ['{"id":8}', 'ok']);
    assert.equal(heads.length, 2);
    assert.match(heads[0], /^\{"id":7,/);
    assert.equal(heads[1], '0123456789ABC');
  });

  it('browserKey: sessions share a browser only when they ask for the same one', () => {
    const headless = browserKey({ mode: 'launch', launch: { headless: true, args: ['--a'] } });
    assert.equal(headless, browserKey({ mode: 'launch', launch: { headless: true, args: ['--b'] } }), 'switches do not split');
    assert.notEqual(headless, browserKey({ mode: 'launch', launch: { headless: false } }));
    assert.notEqual(headless, browserKey({ mode: 'launch', launch: { headless: true, userDataDir: '/p' } }), 'a persistent profile is its own browser');
    assert.notEqual(headless, browserKey({ mode: 'launch', launch: { headless: true, executablePath: '/x/chrome' } }));
    assert.equal(browserKey({ mode: 'attach', endpoint: 'http://h:1' }), 'attach http://h:1');
    // An engine's token never shows in the key (status, logs); two tokens are still two browsers.
    const a = browserKey({ mode: 'attach', endpoint: 'ws://h:3000?token=one' });
    assert.match(a, /^attach ws:\/\/h:3000\/\?token=\*\*\* #[0-9a-f]{8}$/);
    assert.notEqual(a, browserKey({ mode: 'attach', endpoint: 'ws://h:3000?token=two' }));
    assert.notEqual(a, browserKey({ mode: 'attach', endpoint: 'ws://h:3000?token=one', headers: { 'x-api-key': 'k' } }));
  });

  it('TabScope: own tabs, tabs opened, and popups of those; nothing else', () => {
    const scope = new TabScope(['A']);
    assert.equal(scope.owns({ targetId: 'A' }), true);
    assert.equal(scope.owns({ targetId: 'B' }), false);
    assert.equal(scope.owns({ targetId: 'P', openerId: 'A' }), true, 'a popup of our tab');
    assert.equal(scope.owns({ targetId: 'Q', openerId: 'P' }), true, 'a popup of our popup');
    assert.equal(scope.owns({ targetId: 'R', openerId: 'B' }), false, 'a popup of another client’s tab');
    scope.add('C');
    assert.deepEqual(scope.ids.sort(), ['A', 'C', 'P', 'Q']);
  });

  it('describeSession: client, tab, activity; marks this window', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const info = { id: 's1', client: 'MCP: Claude', pid: 7, browser: 'launch headless', tabs: [{ id: 't', title: 'Shop', url: 'https://shop.test/' }, { id: 'u', title: '', url: 'about:blank' }], startedAt: now - 3_600_000, lastActivity: now - 5000, connected: true, transport: 'direct' as const, requests: 1, messages: 1 };
    const d = describeSession(info, now);
    assert.equal(d.label, 'MCP: Claude');
    assert.equal(d.description, 'Shop +1 · 5s ago');
    assert.match(d.tooltip, /• Shop — https:\/\/shop\.test\//);
    assert.match(d.tooltip, /started 1h ago/);
    assert.equal(describeSession(info, now, 's1').label, 'MCP: Claude (this window)');
  });
});
