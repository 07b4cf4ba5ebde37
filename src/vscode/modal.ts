import type { MessageItem, MessageOptions } from 'vscode';
import type { ConfirmAnswer, ConfirmRequest, Confirmer } from '../safety/decider';
import { modalText } from './modalText';

export const CANCEL = 'Cancel';
export const DONT_ALLOW = "Don't Allow";
export const ALLOW = 'Allow';

export type ShowWarning = (message: string, options: MessageOptions, ...items: MessageItem[]) => Thenable<MessageItem | undefined>;

/**
 * The modal question: one plain question naming the action and the site, the facts below it.
 * VS Code focuses the first button that is not the close affordance, so "Don't Allow" comes first: Enter refuses,
 * never allows; Cancel (or Escape) refuses too. On Linux and macOS VS Code lays the buttons out from the right,
 * the close affordance next to the first: a person reads Allow, Allow on <site> for This Session, Cancel, Don't
 * Allow (focused), the narrowest grant first. VS Code always adds a close button to a modal, so Cancel cannot go.
 * `show` is window.showWarningMessage in the extension, a scripted answer in unit tests.
 */
export function createModalConfirmer(show: ShowWarning): Confirmer {
  return async (req: ConfirmRequest): Promise<ConfirmAnswer> => {
    const { title, detail, allowSite } = modalText(req);
    const deny: MessageItem = { title: DONT_ALLOW };
    const allow: MessageItem = { title: ALLOW };
    const site: MessageItem | undefined = allowSite ? { title: allowSite } : undefined;
    const cancel: MessageItem = { title: CANCEL, isCloseAffordance: true };
    const pick = await show(title, { modal: true, detail }, deny, ...(site ? [site] : []), allow, cancel);
    return pick === allow ? 'allow' : site && pick === site ? 'allow-site' : 'refuse';
  };
}
