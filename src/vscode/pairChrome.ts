import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { daemonControl } from '../daemon/client';
import { ensurePairing, readPairing, relayPairingFile } from '../daemon/relayPairing';
import { errorMessage } from '../base/errors';
import { RELAY_ENDPOINT } from '../session/relayProtocol';
import { daemonScript } from './sharing';

export const COPY = 'Copy Pairing Code';
export const NEW_CODE = 'New Code';

/**
 * "Browser Agent: Pair Chrome Extension": shows the pairing code (port and token) to paste into the
 * companion extension's side panel, and turns relay mode on in the session daemon (started if needed).
 */
/**
 * The companion extension this VS Code extension ships (dist/chrome-extension), copied next to the
 * pairing (~/.browser-agent/chrome-extension) for "Load unpacked": VS Code replaces its own folder on
 * every update, and Chrome would lose an extension loaded from there. Copied again only when it changed.
 */
function chromeExtensionFolder(): string | undefined {
  const script = daemonScript();
  const shipped = script && join(dirname(script), 'chrome-extension');
  if (!shipped || !existsSync(join(shipped, 'manifest.json'))) return undefined;
  const stable = join(dirname(relayPairingFile()), 'chrome-extension');
  try {
    const same = (f: string) => existsSync(join(stable, f)) && readFileSync(join(stable, f)).equals(readFileSync(join(shipped, f)));
    if (!['manifest.json', 'worker.js', 'panel.js', 'panel.html'].every(same)) {
      rmSync(stable, { recursive: true, force: true });
      cpSync(shipped, stable, { recursive: true });
    }
    // The .vsix does not pack the icon twice: it is this extension's own icon.
    const icon = join(stable, 'icons', 'icon128.png');
    if (!existsSync(icon)) cpSync(join(dirname(dirname(script)), 'resources', 'icon.png'), icon);
    return stable;
  } catch {
    return shipped;
  }
}

/** The dialog's text: the three steps, the code, and whether the extension is connected yet. */
export function pairingDetail(code: string, state: string, folder: string | undefined): string {
  return [
    `1. Install the Chrome extension once: chrome://extensions → Developer mode → Load unpacked → ${folder ?? 'dist/chrome-extension of Browser Agent (npm run package:chrome)'}.`,
    "2. Open Chrome's side panel, choose Browser Agent in its menu, and paste this code:",
    '',
    code,
    '',
    '3. Share a tab with the extension\'s toolbar button, then "Attach to Browser…" → Chrome (Browser Agent extension) here, or browser-agent-mcp --extension.',
    '',
    state,
  ].join('\n');
}

export async function pairChromeExtension(renew = false): Promise<void> {
  const pairing = ensurePairing({ renew });
  let state = '';
  try {
    const relay = await daemonControl('relay', {}, { spawn: true, script: daemonScript() });
    state = relay.connected ? `The extension is connected (${relay.sharedTabs} shared tab(s)).` : `Browser Agent is waiting for the extension on 127.0.0.1:${relay.port}.`;
  } catch (e) {
    state = `The session daemon could not turn relay mode on: ${errorMessage(e)}`;
  }
  const pick = await vscode.window.showInformationMessage(
    'Pair the Browser Agent Chrome extension',
    {
      modal: true,
      detail: pairingDetail(pairing.code, state, chromeExtensionFolder()),
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
