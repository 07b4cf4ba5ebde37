import * as vscode from 'vscode';
import type { Logger } from '../session/manager';

export function createLog(): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Browser Agent', { log: true });
  return {
    channel,
    logger: { info: (m) => channel.info(m), warn: (m) => channel.warn(m), error: (m) => channel.error(m) },
  };
}
