import { UNTRUSTED_NOTE } from '../base/untrusted';
import type { RiskCategory, ToolDefinition } from '../contract/types';
import { inputSchemaOf } from '../contract/inputSchema';

/** One `contributes.languageModelTools` entry, generated from the registry (npm run gen:manifest). */
export interface LanguageModelToolContribution {
  name: string;
  toolReferenceName: string;
  displayName: string;
  modelDescription: string;
  userDescription: string;
  inputSchema: object;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
}

const ICONS: Record<RiskCategory, string> = {
  read: '$(eye)',
  navigate: '$(globe)',
  input: '$(edit)',
  script: '$(code)',
  upload: '$(cloud-upload)',
  session: '$(browser)',
};

/** Each tool its own icon in Copilot's tool picker and chat; the risk's icon for tools not listed. */
const TOOL_ICONS: Record<string, string> = {
  browser_navigate: '$(globe)', browser_navigate_back: '$(arrow-left)', browser_navigate_forward: '$(arrow-right)', browser_reload: '$(refresh)',
  browser_snapshot: '$(list-tree)', browser_find: '$(search)', browser_element_details: '$(info)', browser_screenshot: '$(device-camera)',
  browser_click: '$(target)', browser_type: '$(keyboard)', browser_fill_form: '$(checklist)', browser_select_option: '$(list-selection)',
  browser_hover: '$(move)', browser_drag: '$(grabber)', browser_press_key: '$(record-keys)', browser_scroll: '$(fold-down)',
  browser_upload_file: '$(cloud-upload)', browser_handle_dialog: '$(comment)', browser_wait: '$(watch)', browser_tabs: '$(multiple-windows)',
  browser_evaluate: '$(code)', browser_extract: '$(markdown)', browser_skills_search: '$(book)', browser_close: '$(close)',
  browser_console_messages: '$(debug-console)', browser_network_requests: '$(radio-tower)', browser_resize: '$(screen-full)', browser_performance: '$(dashboard)',
};

/** The tool set name users reference as `#browser`. */
export const TOOL_SET_NAME = 'browser';

function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (m ? m[1] : text.trim()).replace(/\s+/g, ' ');
}

export function languageModelToolContributions(tools: readonly ToolDefinition[]): LanguageModelToolContribution[] {
  return tools.map((t) => ({
    name: t.name,
    toolReferenceName: t.name,
    displayName: t.title,
    modelDescription: /untrusted/i.test(t.description) || t.risk === 'session' ? t.description : `${t.description} ${UNTRUSTED_NOTE}`,
    userDescription: firstSentence(t.description),
    inputSchema: inputSchemaOf(t),
    canBeReferencedInPrompt: true,
    icon: TOOL_ICONS[t.name] ?? ICONS[t.risk] ?? '$(globe)',
    tags: ['browser', 'browser-agent', `risk-${t.risk}`, ...(t.readOnly ? ['read-only'] : [])],
  }));
}

/**
 * A user tool set (`Chat: Configure Tool Sets`) so `#browser` pulls every tool into a prompt.
 * The `languageModelToolSets` contribution point still needs a proposed API in VS Code 1.138,
 * so the set ships as a snippet (resources/browser.toolsets.jsonc) instead of a contribution.
 */
export function toolSetSnippet(tools: readonly ToolDefinition[]): Record<string, { tools: string[]; description: string; icon: string }> {
  return {
    [TOOL_SET_NAME]: {
      tools: tools.map((t) => t.name),
      description: 'Drive a real Chrome: snapshot, click, type, navigate, extract (Browser Agent).',
      icon: 'globe',
    },
  };
}
