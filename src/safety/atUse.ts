import { BrowserAgentError } from '../errors';
import type { Tab } from '../session/tab';
import type { ActionPreview, ToolContext } from '../tools/types';
import { guardOf } from './guard';
import { factsSignature, targetAt, type Point } from './pointTarget';
import type { Rating, RiskLevel } from './types';

const ORDER: RiskLevel[] = ['auto', 'notify', 'confirm', 'block'];

/** What the decider leaves for the moment of use: the preview it rated, its rating, and how to rate again. */
export interface AtUse {
  preview?: ActionPreview;
  decided: Rating;
  rate(target: NonNullable<ActionPreview['target']>): Promise<Rating>;
}

/** A new rating that needs the person again: stronger, or another reason to confirm than the one they answered. */
function raises(now: Rating, decided: Rating): boolean {
  const a = ORDER.indexOf(now.level);
  const b = ORDER.indexOf(decided.level);
  return a > b || (a >= ORDER.indexOf('confirm') && a === b && now.reason !== decided.reason);
}

/**
 * Time of check, time of use: the policy rated what the preview saw (the snapshot's element, or the point's
 * element before the pointer moved). Just before the button goes down, the element the browser's hit test
 * finds at the point is read again; when it is not what was rated (its text became "Pay now" on hover, or
 * another element moved under the pointer) and the new reading needs more than was decided, the person is
 * asked about what is really there, and a refusal stops the click. Costs one hit test and one read per click.
 */
export async function confirmAtUse(ctx: ToolContext, tab: Tab, point: Point, opts: { ifUnread?: () => Promise<unknown> } = {}): Promise<void> {
  const guard = guardOf(ctx);
  const use = guard?.atUse;
  if (!guard || !use) return;
  // Fail closed: a click whose target cannot be read is not made (the page may stall on purpose to pass unread).
  // A page that just loaded a new document is read once more; `ifUnread` may say why instead (the element is gone: STALE_REF).
  const target = (await targetAt(tab, point).catch(() => undefined)) ?? (await targetAt(tab, point).catch(() => undefined));
  if (!target) {
    await opts.ifUnread?.();
    throw new BrowserAgentError('BLOCKED_BY_POLICY', 'Not clicked: the element under the pointer could not be read for the safety check (the page did not answer).', 'Take a new snapshot and try again; if the page is hung, reload it.');
  }
  if (factsSignature(target) === factsSignature(use.preview?.target)) return;
  const now = await use.rate(target);
  if (!raises(now, use.decided)) return;
  const shown: ActionPreview = {
    ...(use.preview ?? { message: 'Clicking' }),
    message: `${use.preview?.message ?? 'Clicking'} (what is under the pointer changed after the check)`,
    target: { ...target, ref: use.preview?.target?.ref, role: use.preview?.target?.role },
  };
  const d = await guard.confirm(now, shown);
  if (d.outcome === 'refused' || d.outcome === 'blocked' || d.outcome === 'needs-confirmation') {
    const why = d.outcome === 'refused' ? 'the user declined it' : d.outcome === 'blocked' ? 'the safety policy blocks it' : 'it needs a confirmation this client cannot show';
    throw new BrowserAgentError(
      'BLOCKED_BY_POLICY',
      `Not clicked: the element under the pointer changed after the safety check (${now.reason ?? now.rule}), and ${why}.`,
      'Do not retry; the page changed what the click would do. Take a new snapshot and continue another way or ask the user.',
    );
  }
  use.decided = now;
  if (use.preview) use.preview = { ...use.preview, target };
}
