import * as vscode from 'vscode';
import type { Logger } from '../session/manager';
import { redactingChannel } from '../safety/redactingChannel';

/** The output channel and the session log on it; every line passes `redact` (the secret vault) first. */
export function createLog(redact: (text: string) => string): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = redactingChannel(vscode.window.createOutputChannel('Browser Agent', { log: true }), redact);
  return {
    channel,
    logger: { info: (m) => channel.info(m), warn: (m) => channel.warn(m), error: (m) => channel.error(m) },
  };
}
