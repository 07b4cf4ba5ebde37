import { errorMessage, isAgentError } from '../base/errors';

/** A button on a failure message and what it does. */
export type FixAction = { label: 'Open Settings'; query: string } | { label: 'How to Attach' } | { label: 'Show Log' };

/**
 * What a person sees when launching or attaching fails: the message, the fix-it hint, and the
 * buttons that help (pure, so it is unit-tested).
 */
export function failureText(what: 'Launch' | 'Attach', e: unknown): { message: string; actions: FixAction[] } {
  const hint = isAgentError(e) ? e.hint : undefined;
  const actions = fixActions(what);
  // Notifications show no `detail`: the hint goes into the message itself.
  const text = errorMessage(e).trim().replace(/([^.!?])$/, '$1.');
  return {
    message: `Browser Agent ${what === 'Launch' ? 'could not launch the browser' : 'could not attach to the browser'}: ${text}${hint ? ` How to fix it: ${hint}` : ''}`,
    actions,
  };
}

/** The buttons that help after a failed launch or attach. */
export function fixActions(what: 'Launch' | 'Attach'): FixAction[] {
  return what === 'Attach'
    ? [{ label: 'How to Attach' }, { label: 'Open Settings', query: 'browserAgent.connection' }, { label: 'Show Log' }]
    : [{ label: 'Open Settings', query: 'browserAgent.browser' }, { label: 'Show Log' }];
}

/** The same buttons for a tool's error code (a chat card), none for codes a setting cannot fix. */
export function fixActionsForCode(code: string | undefined): FixAction[] {
  return code === 'LAUNCH_FAILED' ? fixActions('Launch') : code === 'ATTACH_FAILED' ? fixActions('Attach') : [];
}
