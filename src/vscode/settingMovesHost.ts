import * as vscode from 'vscode';
import { moveSettings, type SettingsScope } from './settingMoves';

/** The settings files of this window (user, workspace, each folder), each read fresh at every look. */
function scopes(): SettingsScope[] {
  const T = vscode.ConfigurationTarget;
  const list: SettingsScope[] = [
    { name: 'User', target: T.Global, value: (k) => vscode.workspace.getConfiguration().inspect(k)?.globalValue, write: (k, v) => vscode.workspace.getConfiguration().update(k, v, T.Global) },
  ];
  if (vscode.workspace.workspaceFolders?.length) {
    list.push({ name: 'Workspace', target: T.Workspace, value: (k) => vscode.workspace.getConfiguration().inspect(k)?.workspaceValue, write: (k, v) => vscode.workspace.getConfiguration().update(k, v, T.Workspace) });
  }
  // A folder's own settings exist apart from the workspace's only in a multi-root workspace.
  if (vscode.workspace.workspaceFile) {
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const c = () => vscode.workspace.getConfiguration(undefined, f.uri);
      list.push({ name: `Folder ${f.name}`, target: T.WorkspaceFolder, value: (k) => c().inspect(k)?.workspaceFolderValue, write: (k, v) => c().update(k, v, T.WorkspaceFolder) });
    }
  }
  return list;
}

/** On activation: renamed settings move to their new keys (see settingMoves.ts); what moved goes to the log. */
export async function moveRenamedSettings(log: (line: string) => void): Promise<void> {
  for (const line of await moveSettings(scopes())) log(line);
}
