import * as vscode from 'vscode';
import type { Confirmer, Notifier } from '../safety/decider';
import { createModalConfirmer } from './modal';

/** The real VS Code modal (window.showWarningMessage with modal: true). */
export function vscodeModalConfirmer(): Confirmer {
  return createModalConfirmer((m, o, ...items) => vscode.window.showWarningMessage(m, o, ...items));
}

/**
 * notify-level actions: written to the log, never a toast (one per navigation was noise). The chat panel shows
 * them on the step's card with the reason; the audit log records them with every step.
 */
export function logNotifier(log: (text: string) => void): Notifier {
  return (message) => log(`Notice: ${message}`);
}
