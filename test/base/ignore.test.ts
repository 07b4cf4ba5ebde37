import assert from 'node:assert/strict';
import { ignore } from '../../src/base/ignore';
import { ignore as ignoreInPage } from '../../src/page/ignore';

describe('ignore: an error dropped on purpose says why', () => {
  const written: string[] = [];
  const write = process.stderr.write;
  const debug = process.env.BROWSER_AGENT_DEBUG;
  beforeEach(() => {
    written.length = 0;
    process.stderr.write = ((s: string) => (written.push(String(s)), true)) as typeof process.stderr.write;
  });
  afterEach(() => {
    process.stderr.write = write;
    if (debug === undefined) delete process.env.BROWSER_AGENT_DEBUG;
    else process.env.BROWSER_AGENT_DEBUG = debug;
  });

  it('is silent by default and returns undefined (a drop-in for `.catch(() => undefined)`)', async () => {
    delete process.env.BROWSER_AGENT_DEBUG;
    assert.equal(await Promise.reject(new Error('gone')).catch((e) => ignore(e, 'the frame may be gone')), undefined);
    assert.deepEqual(written, []);
  });

  it('with BROWSER_AGENT_DEBUG, leaves one line on stderr with the reason and the error', () => {
    process.env.BROWSER_AGENT_DEBUG = '1';
    ignore(new Error('No node with given id'), 'release: the object dies with its context anyway');
    ignore('plain', 'a string thrown');
    assert.deepEqual(written, ['[browser-agent] ignored: release: the object dies with its context anyway: No node with given id\n', '[browser-agent] ignored: a string thrown: plain\n']);
  });

  it('returns the fallback given as third argument, and still leaves its trace', async () => {
    process.env.BROWSER_AGENT_DEBUG = '1';
    const selected: boolean = await Promise.reject(new Error('detached')).catch((e) => ignore(e, 'unread counts as not selected', false));
    assert.equal(selected, false);
    const { node } = await Promise.reject(new Error('gone')).catch((e) => ignore(e, 'no node', { node: undefined }));
    assert.equal(node, undefined);
    assert.deepEqual(written, ['[browser-agent] ignored: unread counts as not selected: detached\n', '[browser-agent] ignored: no node: gone\n']);
  });

  it("the page's twin returns the fallback and touches no global, even a planted `process` that throws", () => {
    process.env.BROWSER_AGENT_DEBUG = '1';
    assert.equal(ignoreInPage(new Error('cross-origin'), 'another origin'), undefined);
    assert.deepEqual(ignoreInPage(new Error('x'), 'fallback', []), []);
    assert.deepEqual(written, [], 'page code never writes a trace');
    const planted = { env: { BROWSER_AGENT_DEBUG: '1' }, stderr: { write: () => { throw new Error('a page-planted process'); } } };
    const source = `${ignoreInPage}`;
    assert.doesNotMatch(source, /process|globalThis|window/);
    assert.equal(new Function('process', `return (${source})(new Error('e'), 'why', 7);`)(planted), 7);
  });
});
