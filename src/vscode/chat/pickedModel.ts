import type { AgentSettings } from '../agent/settings';
import type { ModelChoice } from './messages';
import { ignore } from '../../base/ignore';

/**
 * The model just picked in the panel. The picker saves it to the user's settings, but that write is
 * asynchronous (it goes through the workbench to settings.json): a person who picks a model and presses
 * Enter at once would otherwise run the previous model. Until the settings say otherwise, the pick wins.
 */
export class PickedModel {
  private choice?: ModelChoice;
  private saving: Promise<unknown> = Promise.resolve();

  /** Records a pick and the settings write that persists it. */
  pick(choice: ModelChoice, save: Promise<unknown>): Promise<unknown> {
    this.choice = choice;
    this.saving = save.catch((e) => ignore(e, "the pick's caller sees a failed write; this only orders later reads"));
    return save;
  }

  /** The settings changed after the pick (our write landed, or the person edited them): they win now. */
  settingsChanged(): void {
    this.choice = undefined;
  }

  /** Settings with the pending pick applied, once its write has settled. */
  async apply(read: () => AgentSettings): Promise<AgentSettings> {
    await this.saving;
    return this.applyNow(read());
  }

  applyNow(s: AgentSettings): AgentSettings {
    const c = this.choice;
    if (!c) return s;
    if (c.provider === 'vscode-lm') return { ...s, provider: c.provider, vscodeLmModel: c.model };
    if (c.provider === 'anthropic') return { ...s, provider: c.provider, anthropicModel: c.model };
    return { ...s, provider: c.provider, openaiModel: c.model };
  }
}
