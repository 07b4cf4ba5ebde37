import type { CdpConnection, CdpSession } from '../session/cdp';
import { worldName } from '../session/worlds';
import { ignore } from '../base/ignore';

/** The isolated world actions run their element functions in (one per frame, made on first use). */
const WORLD = worldName('act');

const worlds = new WeakMap<CdpConnection, Map<string, Promise<number>>>();

function table(session: CdpSession): Map<string, Promise<number>> {
  let t = worlds.get(session.connection);
  if (!t) {
    const made = (t = new Map());
    worlds.set(session.connection, made);
    // A new document in the frame has new worlds: the old context id would resolve nothing.
    session.connection.on('Page.frameNavigated', (p: { frame: { id: string } }, sid?: string) => made.delete(`${sid}|${p.frame.id}`));
  }
  return t;
}

/** The execution context of our action world in `frameId` (on the session that owns the frame). */
export function actWorld(session: CdpSession, frameId: string): Promise<number> {
  const t = table(session);
  const key = `${session.id}|${frameId}`;
  let p = t.get(key);
  if (!p) {
    p = session.send('Page.createIsolatedWorld', { frameId, worldName: WORLD, grantUniveralAccess: false }, 5000).then((r) => r.executionContextId);
    p.catch((e) => {
      ignore(e, 'the caller sees the error; the failed world is forgotten, so the next call makes it again');
      t.delete(key);
    });
    t.set(key, p);
  }
  return p;
}

/** Drops a world whose context is gone (the frame loaded a new document). */
export function forgetActWorld(session: CdpSession, frameId: string): void {
  table(session).delete(`${session.id}|${frameId}`);
}
