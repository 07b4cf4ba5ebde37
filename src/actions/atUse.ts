import { BrowserAgentError } from '../base/errors';
import type { Tab } from '../session/tab';
import type { ActionPreview, ExecutionGuard, ToolContext } from '../contract/types';
import { guardFor } from './guard';
import { readFocusedTarget } from './focusFacts';
import { factsSignature, targetAt, type Point } from './pointTarget';
import type { Rating, RiskLevel } from '../contract/decision';
import { ignore } from '../base/ignore';

const ORDER: RiskLevel[] = ['auto', 'notify', 'confirm', 'block'];

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
  const guard = guardFor(ctx, 'Not clicked');
  if (!guard) return;
  // Fail closed: a click whose target cannot be read is not made (the page may stall on purpose to pass unread).
  // A page that just loaded a new document is read once more; `ifUnread` may say why instead (the element is gone: STALE_REF).
  const target = (await targetAt(tab, point).catch((e) => ignore(e, 'an unread target is read once more, then refused below (fails closed)'))) ?? (await targetAt(tab, point).catch((e) => ignore(e, 'an unread target is read once more, then refused below (fails closed)')));
  if (!target) {
    await opts.ifUnread?.();
    throw new BrowserAgentError('BLOCKED_BY_POLICY', 'Not clicked: the element under the pointer could not be read for the safety check (the page did not answer).', 'Take a new snapshot and try again; if the page is hung, reload it.');
  }
  await recheck(guard, target, 'what is under the pointer changed after the check', 'Not clicked: the element under the pointer changed after the safety check');
}

/**
 * The same for keys and typed text: they go to whatever has focus when they are sent, and a page can move the
 * focus after the check (a field that hands it to another origin's iframe as it is focused, which would get a
 * bound secret). Call just before the text or key goes out.
 */
export async function confirmFocusAtUse(ctx: ToolContext, tab: Tab): Promise<void> {
  const guard = guardFor(ctx, 'Not typed');
  if (!guard) return;
  const target = (await readFocusedTarget(tab).catch((e) => ignore(e, 'an unread focus is read once more, then refused below (fails closed)', null))) ?? (await readFocusedTarget(tab).catch((e) => ignore(e, 'an unread focus is read once more, then refused below (fails closed)', null)));
  if (target === null) throw new BrowserAgentError('BLOCKED_BY_POLICY', 'Not typed: the focused element could not be read for the safety check (the page did not answer).', 'Take a new snapshot and try again; if the page is hung, reload it.');
  if (!target) return; // nothing has focus: the keys reach no field
  await recheck(guard, target, 'the focus moved after the check', 'Not typed: the focus moved to another element after the safety check');
}

/**
 * Drags: the element under the pointer where the drop will happen, just before it does (a drop zone that became
 * the trash as the drag started, or a drop by coordinates the preview could not name).
 */
export async function confirmDropAtUse(ctx: ToolContext, tab: Tab, point: Point): Promise<void> {
  const guard = guardFor(ctx, 'Not dropped');
  if (!guard) return;
  const target = (await targetAt(tab, point).catch((e) => ignore(e, 'an unread target is read once more, then refused below (fails closed)'))) ?? (await targetAt(tab, point).catch((e) => ignore(e, 'an unread target is read once more, then refused below (fails closed)')));
  if (!target) throw new BrowserAgentError('BLOCKED_BY_POLICY', 'Not dropped: the element under the pointer could not be read for the safety check (the page did not answer).', 'Take a new snapshot and try again.');
  await recheck(guard, target, 'where it drops changed after the check', 'Not dropped: what is under the pointer is not what was checked', 'dropTarget');
}

async function recheck(guard: ExecutionGuard, target: NonNullable<ActionPreview['target']>, note: string, refusal: string, slot: 'target' | 'dropTarget' = 'target'): Promise<void> {
  const use = guard.atUse;
  if (factsSignature(target) === factsSignature(use.preview?.[slot])) return;
  const now = await use.rate(target, slot);
  if (!raises(now, use.decided)) return;
  const shown: ActionPreview = {
    ...(use.preview ?? { message: 'Acting' }),
    message: `${use.preview?.message ?? 'Acting'} (${note})`,
    [slot]: slot === 'target' ? { ...target, ref: use.preview?.target?.ref, role: use.preview?.target?.role } : target,
  };
  const d = await guard.confirm(now, shown);
  if (d.outcome === 'needs-confirmation') {
    throw new BrowserAgentError(
      'BLOCKED_BY_POLICY',
      `${refusal} (${now.reason ?? now.rule}); that needs a confirmation, and this client cannot show one (it does not support MCP elicitation); nothing was done.`,
      'The user can permit such actions by starting the MCP server with --allow-confirm-actions, or by allow lists. Do not retry; continue another way or tell the user.',
    );
  }
  if (d.outcome === 'refused' || d.outcome === 'blocked') {
    const why = d.outcome === 'refused' ? 'the user declined it' : 'the safety policy blocks it';
    throw new BrowserAgentError('BLOCKED_BY_POLICY', `${refusal} (${now.reason ?? now.rule}), and ${why}.`, 'Do not retry; the page changed where the action would go. Take a new snapshot and continue another way or ask the user.');
  }
  use.decided = now;
  if (use.preview) use.preview = { ...use.preview, [slot]: target };
}
