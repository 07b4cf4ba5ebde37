// The bookkeeping of RelayScreencasts on its own (what Chrome is asked for, who gets which frame, when Chrome's
// frame is acknowledged), against a stand-in for the tab's debugger. The real thing, with the extension in a headed
// Chromium, is liveView.test.ts; these are the cases it cannot time: pacing, rates, a bad request.
import assert from 'node:assert/strict';
import type { Protocol } from 'devtools-protocol';
import { RelayScreencasts } from '../../src/session/relayScreencasts';

const TAB = 7;
const LIVE = { format: 'jpeg', quality: 55, maxWidth: 960, maxHeight: 720, everyNthFrame: 1 } as const;
const KEEP = { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8, everyNthFrame: 1_000_000 } as const;

function setUp() {
  const calls: [string, object][] = [];
  const got: [string, number][] = [];
  const casts = new RelayScreencasts(
    async (tabId, method, params) => {
      assert.equal(tabId, TAB);
      calls.push([method, params]);
      // Chrome's answer to parameters of the wrong type.
      if (method === 'Page.startScreencast' && !Number.isFinite((params as { maxWidth?: unknown }).maxWidth)) throw new Error('Invalid parameters');
      return {};
    },
    (sessionId, p) => got.push([sessionId, p.sessionId]),
  );
  let n = 0;
  const frame = () => casts.frame(TAB, { data: '', sessionId: ++n, metadata: {} as Protocol.Page.ScreencastFrameMetadata });
  const acks = () => calls.filter(([m]) => m === 'Page.screencastFrameAck').map(([, p]) => (p as { sessionId: number }).sessionId);
  const starts = () => calls.filter(([m]) => m === 'Page.startScreencast').map(([, p]) => p);
  return { casts, calls, got, frame, acks, starts };
}

describe('RelayScreencasts: each session\'s own screencast on one relayed tab', () => {
  it('Chrome casts the union; keepDrawing gets no frames while the live view runs; each stop leaves the other\'s cast', async () => {
    const t = setUp();
    await t.casts.start(TAB, 'keep', KEEP);
    await t.casts.start(TAB, 'live', LIVE);
    assert.deepEqual(t.starts(), [KEEP, LIVE]);
    t.frame(); // the first frame of a cast goes to every session casting (Chrome's own counting starts there too)
    t.got.length = 0;
    for (let i = 0; i < 5; i++) t.frame();
    assert.deepEqual(t.got.map(([s]) => s), ['live', 'live', 'live', 'live', 'live'], 'only the live view is handed frames');
    await t.casts.stop(TAB, 'live');
    assert.deepEqual(t.starts().at(-1), KEEP, 'the live view stopped: Chrome goes back to keepDrawing\'s cast, not to none');
    assert.equal(t.calls.filter(([m]) => m === 'Page.stopScreencast').length, 0);
    await t.casts.stop(TAB, 'keep');
    assert.equal(t.calls.at(-1)![0], 'Page.stopScreencast', 'the last cast gone: Chrome stops');
  });

  it('a start that changes nothing is not sent to Chrome again', async () => {
    const t = setUp();
    await t.casts.start(TAB, 'live', LIVE);
    await t.casts.start(TAB, 'keep', KEEP);
    assert.deepEqual(t.starts(), [LIVE]);
  });

  it('Chrome\'s frame is acknowledged once every session handed it has; a frame no one wants at once', async () => {
    const t = setUp();
    await t.casts.start(TAB, 'a', LIVE);
    await t.casts.start(TAB, 'b', LIVE);
    t.frame();
    assert.deepEqual(t.acks(), []);
    await t.casts.ack(TAB, 'a', 1);
    assert.deepEqual(t.acks(), [], 'the slower viewer still paces the stream');
    await t.casts.ack(TAB, 'b', 1);
    await t.casts.ack(TAB, 'b', 1); // a second ack of the same frame changes nothing
    assert.deepEqual(t.acks(), [1]);
    t.frame();
    await t.casts.ack(TAB, 'a', 2);
    await t.casts.stop(TAB, 'b'); // stopping with a frame unacknowledged lets it go
    assert.deepEqual(t.acks(), [1, 2]);
    await t.casts.stop(TAB, 'a');
    t.frame(); // in flight as the cast stopped
    assert.deepEqual(t.acks(), [1, 2, 3]);
  });

  it('a slower rate gets every n-th frame of a faster one', async () => {
    const t = setUp();
    await t.casts.start(TAB, 'fast', { ...LIVE, everyNthFrame: 2 });
    await t.casts.start(TAB, 'slow', { ...LIVE, everyNthFrame: 6 });
    for (let i = 0; i < 9; i++) t.frame();
    assert.equal(t.got.filter(([s]) => s === 'fast').length, 9);
    assert.deepEqual(t.got.filter(([s]) => s === 'slow').map(([, f]) => f), [1, 4, 7]);
  });

  it('a careless request: Chrome\'s error to that session, the others\' cast untouched; a zero rate counts as every frame', async () => {
    const t = setUp();
    await t.casts.start(TAB, 'live', LIVE);
    await assert.rejects(t.casts.start(TAB, 'bad', { ...LIVE, maxWidth: 'big' as unknown as number }), /Invalid parameters/);
    t.frame();
    assert.deepEqual(t.got, [['live', 1]], 'the failed session casts nothing');
    await t.casts.start(TAB, 'zero', { ...LIVE, everyNthFrame: 0 });
    assert.equal((t.starts().at(-1) as { everyNthFrame: number }).everyNthFrame, 1);
    for (let i = 0; i < 3; i++) t.frame();
    assert.equal(t.got.filter(([s]) => s === 'zero').length, 3);
  });
});
