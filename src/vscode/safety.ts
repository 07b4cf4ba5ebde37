import * as vscode from 'vscode';
import { createDecider, type Confirmer, type Decider } from '../safety/decider';
import { createToolPipeline, type CallRecorder, type ToolPipeline } from '../safety/pipeline';
import { chainSecretSources, envFileSecretSource, SecretVault, type SecretSource } from '../safety/secrets';
import { logNotifier, vscodeModalConfirmer } from './confirm';
import { readPolicySettings, readSecretSettings } from './safetySettings';
import { SECTION } from './settings';

const SECRET_KEY = (name: string) => `browserAgent.secret.${name}`;

/** Secrets from VS Code SecretStorage (names listed in browserAgent.secrets.names), then the .env file. */
export function vscodeSecretSource(storage: vscode.SecretStorage): SecretSource {
  const stored: SecretSource = {
    names: async () => readSecretSettings().names,
    get: async (name) => (readSecretSettings().names.includes(name) ? storage.get(SECRET_KEY(name)) : undefined),
  };
  return {
    names: async () => {
      const file = readSecretSettings().envFile;
      return file ? chainSecretSources(stored, envFileSecretSource(file)).names() : stored.names();
    },
    get: async (name) => {
      const file = readSecretSettings().envFile;
      return file ? chainSecretSources(stored, envFileSecretSource(file)).get(name) : stored.get(name);
    },
  };
}

export interface SafetyApi {
  decider: Decider;
  vault: SecretVault;
  /** Replaces the modal (e.g. by an e2e suite); undefined restores the modal. */
  setConfirmer(confirmer?: Confirmer): void;
  /** The tool pipeline of one front door of this window (chat, Copilot, Run Tool…, replay), its calls recorded by `record`. */
  pipeline(record?: CallRecorder): ToolPipeline;
}

/** The session's safety gate and secret vault, plus the secret commands. */
export function registerSafety(context: vscode.ExtensionContext, log: (text: string) => void = () => {}): SafetyApi {
  const modal = vscodeModalConfirmer();
  let confirmer: Confirmer = modal;
  const vault = new SecretVault(vscodeSecretSource(context.secrets));
  const decider = createDecider(readPolicySettings, (req) => confirmer(req), logNotifier(log), { vault });

  const config = () => vscode.workspace.getConfiguration(`${SECTION}.secrets`);
  context.subscriptions.push(
    vscode.commands.registerCommand('browserAgent.setSecret', async () => {
      const name = await vscode.window.showInputBox({
        title: 'Set Secret (1/2): a name for it',
        prompt: 'A short name, e.g. SHOP_PASSWORD. You then ask the agent to type {{secret:SHOP_PASSWORD}}; the model sees only the name, never the value.',
        placeHolder: 'SHOP_PASSWORD',
        ignoreFocusOut: true,
        validateInput: (v) => (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(v) ? undefined : 'Use letters, digits, _ . or - and start with a letter or _ (e.g. SHOP_PASSWORD)'),
      });
      if (!name) return;
      const value = await vscode.window.showInputBox({
        title: `Set Secret (2/2): the value of ${name}`,
        prompt: `The password or code itself. It is kept in VS Code's secret storage, typed into the page only when the agent types {{secret:${name}}}, and never shown to the model or written to logs.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return;
      await context.secrets.store(SECRET_KEY(name), value);
      const names = config().get<string[]>('names', []);
      if (!names.includes(name)) await config().update('names', [...names, name], vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(`Secret "${name}" saved. Ask the model to type {{secret:${name}}}.`);
    }),
    vscode.commands.registerCommand('browserAgent.deleteSecret', async () => {
      const names = config().get<string[]>('names', []);
      const name = await vscode.window.showQuickPick(names, { title: 'Delete Secret' });
      if (!name) return;
      await context.secrets.delete(SECRET_KEY(name));
      await config().update('names', names.filter((n) => n !== name), vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(`Browser Agent: secret "${name}" deleted.`);
    }),
    vscode.commands.registerCommand('browserAgent.resetSiteAllowances', () => {
      const n = decider.allowances.size;
      decider.allowances.clear();
      void vscode.window.showInformationMessage(
        n ? `Browser Agent: forgot ${n} "Allow for this site" answer${n === 1 ? '' : 's'}; sensitive actions ask again.` : 'Browser Agent: there were no "Allow for this site" answers to forget.',
      );
    }),
  );
  return { decider, vault, setConfirmer: (c) => (confirmer = c ?? modal), pipeline: (record) => createToolPipeline({ decider, vault, record }) };
}
