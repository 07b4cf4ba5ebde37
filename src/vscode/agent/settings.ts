import * as vscode from 'vscode';
import type { ModelChoice } from '../chat/messages';
import { MOVED_SETTINGS, readMoved } from '../settingMoves';

export interface AgentSettings {
  provider: 'vscode-lm' | 'anthropic' | 'openai';
  vscodeLmModel: string;
  anthropicModel: string;
  anthropicBaseURL: string;
  openaiModel: string;
  openaiBaseURL: string;
  openaiVision: 'auto' | 'on' | 'off';
  toolCalling: 'native' | 'json';
  mode: 'auto' | 'dom' | 'hybrid';
  maxSteps: number;
  maxIdenticalCalls: number;
  stream: boolean;
}

export function readAgentSettings(): AgentSettings {
  const c = vscode.workspace.getConfiguration('browserAgent.agent');
  return {
    provider: c.get('provider', 'vscode-lm'),
    vscodeLmModel: readMoved(vscode.workspace.getConfiguration(), MOVED_SETTINGS.vscodeLmModel, ''),
    anthropicModel: c.get('anthropic.model', 'claude-sonnet-4-5'),
    anthropicBaseURL: c.get('anthropic.baseURL', ''),
    openaiModel: c.get('openai.model', 'gpt-4.1'),
    openaiBaseURL: c.get('openai.baseURL', ''),
    openaiVision: c.get('openai.vision', 'auto'),
    toolCalling: c.get('toolCalling', 'native'),
    mode: c.get('mode', 'auto'),
    maxSteps: Math.max(1, c.get('maxSteps', 25)),
    maxIdenticalCalls: Math.max(1, c.get('maxIdenticalCalls', 3)),
    stream: c.get('stream', true),
  };
}

/** The panel's model picker writes the same settings a user would edit. */
export async function saveModelChoice(choice: ModelChoice): Promise<void> {
  const c = vscode.workspace.getConfiguration('browserAgent.agent');
  await c.update('provider', choice.provider, vscode.ConfigurationTarget.Global);
  await modelSetting(choice.provider).update(choice.model);
}

/** Where a provider's model is written (the VS Code LM one under its renamed key). */
export function modelSetting(provider: AgentSettings['provider']): { update: (model: string) => Thenable<void> } {
  if (provider === 'vscode-lm') return { update: (m) => vscode.workspace.getConfiguration().update(MOVED_SETTINGS.vscodeLmModel.to, m, vscode.ConfigurationTarget.Global) };
  return { update: (m) => vscode.workspace.getConfiguration('browserAgent.agent').update(`${provider}.model`, m, vscode.ConfigurationTarget.Global) };
}

export async function saveMode(mode: AgentSettings['mode']): Promise<void> {
  await vscode.workspace.getConfiguration('browserAgent.agent').update('mode', mode, vscode.ConfigurationTarget.Global);
}
