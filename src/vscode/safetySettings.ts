import * as vscode from 'vscode';
import { DEFAULT_POLICY, normalizePolicy, type PolicySettings } from '../safety/settings';
import { SECTION } from './settings';

/** `browserAgent.safety.*` → PolicySettings; every key falls back to the built-in default. */
export function readPolicySettings(): PolicySettings {
  const c = vscode.workspace.getConfiguration(`${SECTION}.safety`);
  const partial: Partial<PolicySettings> = {};
  for (const key of Object.keys(DEFAULT_POLICY) as (keyof PolicySettings)[]) {
    const v = c.get(key);
    if (v !== undefined) (partial as Record<string, unknown>)[key] = v;
  }
  return normalizePolicy(partial);
}

export interface SecretSettings {
  names: string[];
  envFile?: string;
}

export function readSecretSettings(): SecretSettings {
  const c = vscode.workspace.getConfiguration(`${SECTION}.secrets`);
  const envFile = c.get<string>('envFile', '').trim();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const resolved = envFile && folder && !/^([a-z]:)?[\\/]/i.test(envFile) ? `${folder}/${envFile}` : envFile;
  return { names: c.get<string[]>('names', []), envFile: resolved || undefined };
}
