import * as vscode from 'vscode';
import { findLocalServers, probeModels } from '../../agent/providers/probe';
import type { ProviderStatus } from '../chat/messages';
import { SECRET_KEYS } from './factory';
import { promptForKey } from './keys';
import { PROVIDER_TITLES, providerStatuses } from './modelStatus';
import { modelSetting, readAgentSettings, type AgentSettings } from './settings';

/**
 * A model in one minute, without the Settings editor: choosing a provider asks only for what it is missing (a key
 * into secret storage, a base URL, a model from the endpoint's own list). Used by the chat panel's setup and by
 * the walkthrough's "Set Up a Model" command. Each step can be cancelled with Escape and changes nothing then.
 */
type Provider = AgentSettings['provider'];

const config = () => vscode.workspace.getConfiguration('browserAgent.agent');
const save = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);

export async function setBaseURL(suggested?: string): Promise<boolean> {
  const s = readAgentSettings();
  const value = await vscode.window.showInputBox({
    title: 'Browser Agent: OpenAI-compatible base URL',
    prompt: 'The URL the endpoint answers under, ending before /chat/completions (Ollama: http://127.0.0.1:11434/v1, LM Studio: http://127.0.0.1:1234/v1). Empty: OpenAI itself.',
    value: suggested ?? s.openaiBaseURL,
    ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() || /^https?:\/\/[^\s/]+/i.test(v.trim()) ? undefined : 'A URL starting with http:// or https://'),
  });
  if (value === undefined) return false;
  await save('openai.baseURL', value.trim().replace(/\/+$/, ''));
  return true;
}

/** The provider's model: from the endpoint's list where it has one, else typed. */
export async function chooseModel(provider: Provider, secrets: vscode.SecretStorage): Promise<boolean> {
  const s = readAgentSettings();
  let ids: string[] = [];
  if (provider === 'vscode-lm') ids = (await vscode.lm.selectChatModels().then((m) => m, () => [])).map((m) => m.id);
  else if (provider === 'openai' && s.openaiBaseURL) ids = (await probeModels(s.openaiBaseURL, (await secrets.get(SECRET_KEYS.openai)) ?? '', 3000)).models;
  const current = provider === 'vscode-lm' ? s.vscodeLmModel : provider === 'anthropic' ? s.anthropicModel : s.openaiModel;
  let model: string | undefined;
  if (ids.length) {
    const typeOwn = 'Type a model id…';
    const pick = await vscode.window.showQuickPick([...ids.map((id) => ({ label: id, description: id === current ? 'current' : undefined })), { label: typeOwn, description: '' }], {
      title: `Browser Agent: ${PROVIDER_TITLES[provider]} model`, placeHolder: 'The models this endpoint lists', ignoreFocusOut: true,
    });
    if (!pick) return false;
    model = pick.label === typeOwn ? undefined : pick.label;
  }
  model ??= await vscode.window.showInputBox({ title: `Browser Agent: ${PROVIDER_TITLES[provider]} model`, prompt: 'The model id, as the provider names it', value: current, ignoreFocusOut: true });
  if (!model?.trim()) return false;
  await modelSetting(provider).update(model.trim());
  await save('provider', provider);
  return true;
}

/** Makes `provider` the panel's, asking only for what it is missing. Resolves to whether it is ready now. */
export async function useProvider(provider: Provider, secrets: vscode.SecretStorage): Promise<boolean> {
  await save('provider', provider);
  let status = await statusOf(provider, secrets);
  if (provider === 'anthropic' && !status.ready) await promptForKey(secrets, 'anthropic');
  if (provider === 'openai' && !readAgentSettings().openaiBaseURL && !status.keySaved) {
    const local = status.local ?? (await findLocalServers());
    const picks = [
      ...local.map((l) => ({ label: `Use ${l.name}`, description: l.baseURL, detail: `${l.models.length} models on this machine`, url: l.baseURL })),
      { label: 'Enter a base URL…', description: 'Ollama, LM Studio, vLLM, OpenRouter…', detail: undefined, url: '' },
      { label: 'Use OpenAI with an API key…', description: 'api.openai.com', detail: undefined, url: undefined },
    ];
    const pick = await vscode.window.showQuickPick(picks, { title: 'Browser Agent: OpenAI-compatible endpoint', ignoreFocusOut: true });
    if (!pick) return false;
    if (pick.url) await save('openai.baseURL', pick.url);
    else if (pick.url === '') await setBaseURL('http://127.0.0.1:11434/v1');
    else await promptForKey(secrets, 'openai');
  } else if (provider === 'openai' && /refused/.test(status.detail)) {
    await promptForKey(secrets, 'openai');
  }
  status = await statusOf(provider, secrets);
  // An endpoint that lists its models and not the configured one: pick one of its own.
  if (status.models?.length && status.model && !status.models.includes(status.model)) await chooseModel(provider, secrets);
  else if (provider === 'vscode-lm' && status.ready && !readAgentSettings().vscodeLmModel) await chooseModel(provider, secrets);
  return (await statusOf(provider, secrets)).ready;
}

async function statusOf(provider: Provider, secrets: vscode.SecretStorage): Promise<ProviderStatus> {
  const lm = provider === 'vscode-lm' ? await vscode.lm.selectChatModels().then((m) => m, () => []) : [];
  return (await providerStatuses(readAgentSettings(), secrets, lm)).find((p) => p.provider === provider)!;
}

/** The walkthrough's and the palette's way in: each provider with its status, then what it is missing. */
export async function setUpModel(secrets: vscode.SecretStorage): Promise<boolean> {
  const lm = await vscode.lm.selectChatModels().then((m) => m, () => []);
  const statuses = await providerStatuses(readAgentSettings(), secrets, lm);
  const current = readAgentSettings().provider;
  const pick = await vscode.window.showQuickPick(statuses.map((p) => ({
    label: `${p.ready ? '$(pass)' : '$(circle-large-outline)'} ${p.title}`, description: p.provider === current ? 'in use' : undefined, detail: p.detail, provider: p.provider,
  })), { title: 'Browser Agent: Set Up a Model', placeHolder: 'Which model should the chat panel use?', ignoreFocusOut: true });
  if (!pick) return false;
  const ready = await useProvider(pick.provider, secrets);
  const s = readAgentSettings();
  const model = s.provider === 'vscode-lm' ? s.vscodeLmModel : s.provider === 'anthropic' ? s.anthropicModel : s.openaiModel;
  if (ready) void vscode.window.showInformationMessage(`Browser Agent: the chat panel uses ${PROVIDER_TITLES[s.provider]} · ${model || 'its first model'}.`, 'Open Chat').then((b) => b && vscode.commands.executeCommand('browserAgent.openChat'));
  return ready;
}
