import type { MessageOptions } from 'vscode';
import type { ConfirmAnswer, ConfirmRequest, Confirmer } from '../safety/decider';
import { confirmationText } from '../safety/messages';

export const ALLOW = 'Allow';
export const ALLOW_SITE = 'Allow for this site in this session';

export type ShowWarning = (message: string, options: MessageOptions, ...items: string[]) => Thenable<string | undefined>;

/**
 * The modal question: names the action, element, page and rule; Cancel (or Escape) refuses.
 * `show` is window.showWarningMessage in the extension, a scripted answer in unit tests.
 */
export function createModalConfirmer(show: ShowWarning): Confirmer {
  return async (req: ConfirmRequest): Promise<ConfirmAnswer> => {
    const { title, lines } = confirmationText(req);
    const choices = req.origin ? [ALLOW, ALLOW_SITE] : [ALLOW];
    const pick = await show(title, { modal: true, detail: lines.join('\n') }, ...choices);
    return pick === ALLOW ? 'allow' : pick === ALLOW_SITE ? 'allow-site' : 'refuse';
  };
}
