import { ignore } from '../base/ignore';
import { randomBytes } from 'node:crypto';
import type { CdpSession } from './cdp';
import type { Tab } from './tab';
import { pageCall, pageFns } from '../page/fn';
import guardsFns from '../page/session/guards.ts?pagefn';

const guardsPage = pageFns<typeof import('../page/session/guards')>(guardsFns);

/**
 * Masks (`on`) or unmasks the tab's secret fields in every session (out-of-process frames too): page/session/guards.ts,
 * `maskSecretFields`. Values are never read or sent.
 */
async function run(sessions: CdpSession[], attr: string, on: boolean): Promise<void> {
  await Promise.all(sessions.map((s) => s.send('Runtime.evaluate', { expression: pageCall(guardsPage.maskSecretFields, attr, on) }, 2000).catch((e) => ignore(e, 'a frame that does not answer shows no field to mask'))));
}

/** Runs `capture` with the tab's secret fields masked, and unmasks them whatever happens. */
export async function withSecretFieldsMasked<T>(tab: Tab, capture: () => Promise<T>): Promise<T> {
  const sessions = [await tab.session(), ...tab.frameSessions().map((f) => f.session)];
  const attr = `ba-mask-${randomBytes(6).toString('hex')}`;
  await run(sessions, attr, true);
  try {
    return await capture();
  } finally {
    await run(sessions, attr, false);
  }
}
