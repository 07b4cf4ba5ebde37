import * as vscode from 'vscode';
import { daemonControl } from '../daemon/client';
import { ensurePairing, readPairing } from '../daemon/relayPairing';
import { errorMessage } from '../errors';
import { RELAY_ENDPOINT } from '../session/relayProtocol';
import { daemonScript } from './sharing';

export const COPY = 'Copy Pairing Code';
export const NEW_CODE = 'New Code';

/**
 * "Browser Agent: Pair Chrome Extension": shows the pairing code (port and token) to paste into the
 * companion extension's side panel, and turns relay mode on in the session daemon (started if needed).
 */
export async function pairChromeExtension(renew = false): Promise<void> {
  const pairing = ensurePairing({ renew });
  let state = '';
  try {
    const relay = await daemonControl('relay', {}, { spawn: true, script: daemonScript() });
    state = relay.connected ? `The extension is connected (${relay.sharedTabs} shared tab(s)).` : `Waiting for the extension on 127.0.0.1:${relay.port}.`;
  } catch (e) {
    state = `The session daemon could not turn relay mode on: ${errorMessage(e)}`;
  }
  const pick = await vscode.window.showInformationMessage(
    'Pair the Browser Agent Chrome extension',
    {
      modal: true,
      detail: `Paste this code into the extension's side panel (Chrome toolbar → Browser Agent → side panel):\n\n${pairing.code}\n\n${state}\nThen share a tab from the toolbar button and use "Attach to Browser…" → Chrome (Browser Agent extension), or browser-agent-mcp --extension.`,
    },
    COPY,
    NEW_CODE,
  );
  if (pick === COPY) {
    await vscode.env.clipboard.writeText(pairing.code);
    void vscode.window.showInformationMessage('Browser Agent: pairing code copied.');
  } else if (pick === NEW_CODE) {
    await pairChromeExtension(true);
  }
}

/** The "Attach to Browser…" entry for the relay, once paired. */
export function relayAttachItem(): (vscode.QuickPickItem & { endpoint: string }) | undefined {
  if (!readPairing()) return undefined;
  return { label: '$(extensions) Chrome (Browser Agent extension)', description: 'the tabs you share in your own Chrome', detail: 'Through the companion extension and the session daemon', endpoint: RELAY_ENDPOINT };
}
