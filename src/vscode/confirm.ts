import * as vscode from 'vscode';
import type { Confirmer, Notifier } from '../safety/decider';
import { createModalConfirmer } from './modal';

/** The real VS Code modal (window.showWarningMessage with modal: true). */
export function vscodeModalConfirmer(): Confirmer {
  return createModalConfirmer((m, o, ...items) => vscode.window.showWarningMessage(m, o, ...items));
}

/** notify-level actions: a non-blocking information message. */
export const windowNotifier: Notifier = (message) => {
  void vscode.window.showInformationMessage(`Browser Agent: ${message}`);
};
