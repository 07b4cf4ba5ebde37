import assert from 'node:assert/strict';
import { ignore } from '../../src/base/ignore';

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
});
