import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from './cdp';
import { ignore } from '../base/ignore';

/**
 * Keeps a tab that is not the selected one of its window (our background tabs, or a tab the person left)
 * drawing at full rate. Focus emulation (Tab.attach) makes such a page visible with animation frames and
 * unthrottled timers, but after the first click Chromium draws an undrawn tab's frames once a second, so
 * every input event and animation frame waited up to a second (measured on Chromium 150, headed and
 * headless). A frame sink being captured is never throttled: a screencast on a session of its own (so the
 * chat panel's live view on the tab's session can start and stop its own), of 8×8 pixels, handing out one
 * frame in a million, keeps it captured at almost no cost. Resolves to a stop function; best effort.
 */
export async function keepDrawing(connection: CdpConnection, targetId: string): Promise<() => void> {
  const { sessionId } = await connection.send('Target.attachToTarget', { targetId, flatten: true });
  const session = connection.session(sessionId);
  const off = session.on('Page.screencastFrame', (f: Protocol.Page.ScreencastFrameEvent) => void session.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch((e) => ignore(e, 'the tab may be gone; the next frame never comes')));
  await session.send('Page.startScreencast', { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8, everyNthFrame: 1_000_000 });
  return () => {
    off();
    if (!connection.closed) void connection.send('Target.detachFromTarget', { sessionId }).catch((e) => ignore(e, 'the session may be gone already'));
  };
}
