// The snapshot settings as a person finds them: the Settings editor, searched for "snapshot", shows both with
// their titles, defaults and descriptions under Browser Agent (a screenshot is left in test-artifacts/e2e/). The
// renamed settings read "VS Code LM Model" and "Publish MCP Server", and their old keys (run.mjs writes them into
// the user settings before the host starts) were moved on activation.
import * as assert from 'node:assert/strict';
import { teardown, until, Workbench } from './workbench';

describe('UI: the snapshot settings in the Settings editor', function () {
  this.timeout(120_000);
  let wb: Workbench;

  before(async () => {
    wb = await Workbench.open('settings');
  });
  teardown(() => wb, { escapes: 1 });

  it('shows "Snapshot: Max Tokens" and "Snapshot: Fold Text After" with their defaults and descriptions', async () => {
    await wb.runCommand('Preferences: Open Settings (UI)');
    // The search box is a small Monaco editor: clicked and typed into, as a person does.
    const search = wb.page.locator('.settings-editor .settings-header .suggest-input-container').first();
    await search.waitFor({ state: 'visible', timeout: 30_000 });
    await search.click();
    await wb.page.keyboard.type('browserAgent.snapshot');
    const rows = wb.page.locator('.settings-editor .setting-item-contents');
    const texts = await until('both snapshot settings listed', async () => {
      const all = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      return all.length >= 2 && all.some((t) => /Fold Text After/.test(t)) && all.some((t) => /Max Tokens/.test(t)) ? all : undefined;
    });
    await wb.screenshot('snapshot-settings');
    const fold = texts.find((t) => /Fold Text After/.test(t))!;
    assert.match(fold, /Snapshot: Fold Text After/);
    assert.match(fold, /folds the rest of its text: every element, heading and section is still listed/);
    assert.match(fold, /0 never folds/);
    const max = texts.find((t) => /Max Tokens/.test(t))!;
    assert.match(max, /Token budget of a page snapshot/);
    // The values are the defaults (number inputs of the setting rows).
    const values = await wb.page.locator('.settings-editor .setting-item-contents input.setting-control-number, .settings-editor .setting-item-contents input[type="number"], .settings-editor .setting-item-contents .setting-item-control input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    assert.ok(values.includes('3000') && values.includes('16000'), `defaults shown: ${JSON.stringify(values)}`);
    await wb.closeActiveEditor();
  });
  /** The Settings editor searched for `query`, once `ready` holds for the rows' texts. */
  async function searchSettings(query: string, ready: (rows: string[]) => boolean): Promise<string[]> {
    await wb.runCommand('Preferences: Open Settings (UI)');
    const search = wb.page.locator('.settings-editor .settings-header .suggest-input-container').first();
    await search.waitFor({ state: 'visible', timeout: 30_000 });
    await search.click();
    await wb.page.keyboard.press('ControlOrMeta+a');
    await wb.page.keyboard.type(query);
    const rows = wb.page.locator('.settings-editor .setting-item-contents');
    // Until the search has run, the whole settings tree shows: wait for its count ("3 Settings Found").
    const count = wb.page.locator('.settings-editor .settings-count-widget');
    return until(`the settings for "${query}"`, async () => {
      if (!/Found/.test(await count.innerText().catch(() => ''))) return undefined;
      const all = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      return all.length && ready(all) ? all : undefined;
    });
  }

  const isLight = async () => (await wb.page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes('vs') ?? false;
  /** A screenshot in each theme, back in the first one after; `show` brings the view back after each switch. */
  async function bothThemes(name: string, show: () => Promise<unknown>): Promise<void> {
    const first = await isLight();
    await wb.screenshot(`${name}-${first ? 'light' : 'dark'}`);
    await wb.closeActiveEditor();
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the other theme', async () => (await isLight()) !== first);
    await show();
    await wb.screenshot(`${name}-${first ? 'dark' : 'light'}`);
    await wb.closeActiveEditor();
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the first theme again', async () => (await isLight()) === first);
  }

  it('titles the renamed settings "VS Code LM Model" and "Publish MCP Server" (they read "Vscode Lm" and "Mcp")', async () => {
    // The list shows only the rows in view, so each setting is searched for on its own.
    const title = () => wb.page.locator('.settings-editor .setting-item-title').allInnerTexts();
    const lm = () => searchSettings('VS Code LM model', (all) => all.some((t) => /VS Code LM Model/.test(t)));
    await lm();
    assert.ok((await title()).includes('Browser Agent › Agent: VS Code LM Model'), `titles: ${(await title()).join(' | ')}`);
    await bothThemes('vscode-lm-model', lm);
    const mcp = () => searchSettings('Publish MCP server', (all) => all.some((t) => /Publish MCP Server/.test(t)));
    await mcp();
    assert.ok((await title()).includes('Browser Agent: Publish MCP Server'), `titles: ${(await title()).join(' | ')}`);
    await bothThemes('publish-mcp-server', mcp);
  });

  /** The Settings editor's group view (no search) on Extensions › Browser Agent › `group`; its settings' titles. */
  async function groupView(group: string): Promise<string[]> {
    await wb.runCommand('Preferences: Open Settings (UI)');
    const search = wb.page.locator('.settings-editor .settings-header .suggest-input-container').first();
    await search.waitFor({ state: 'visible', timeout: 30_000 });
    await search.click();
    await wb.page.keyboard.press('ControlOrMeta+a');
    await wb.page.keyboard.press('Backspace');
    // Each name is unique in the table of contents (no other entry contains it).
    const toc = (name: string) => wb.page.locator('.settings-toc-container .monaco-list-row').filter({ hasText: name }).first();
    // Each level of the table of contents opens when clicked (it may be open already from an earlier look).
    for (const [i, name] of ['Extensions', 'Browser Agent', group].entries()) {
      const row = toc(name);
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await row.click();
      if (i < 2 && (await row.getAttribute('aria-expanded')) === 'false') await row.click();
    }
    const heading = wb.page.locator('.settings-editor .settings-group-title-label', { hasText: group }).first();
    await heading.waitFor({ state: 'visible', timeout: 15_000 });
    return until(`the ${group} settings under their heading`, async () => {
      // The rows right under the group's heading, in order, up to the next heading.
      const titles = await wb.page.locator('.settings-editor .settings-tree-container .monaco-list-row').evaluateAll((rows, g) => {
        const out: string[] = [];
        let inside = false;
        for (const r of rows) {
          const h = r.querySelector('.settings-group-title-label');
          if (h) {
            if (inside) break;
            inside = h.textContent?.trim() === g;
            continue;
          }
          const t = r.querySelector('.setting-item-title');
          if (inside && t) out.push((t as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
        }
        return out;
      }, group);
      return titles.length ? titles : undefined;
    });
  }

  it('titles the provider settings "Model", "Base URL" under "OpenAI-compatible" and "Anthropic" (they read "Openai: Model" under Agent)', async () => {
    assert.deepEqual(await groupView('OpenAI-compatible'), ['Model', 'Base URL', 'Vision']);
    await bothThemes('openai-compatible-group', () => groupView('OpenAI-compatible'));
    assert.deepEqual(await groupView('Anthropic'), ['Model', 'Base URL']);
    await bothThemes('anthropic-group', () => groupView('Anthropic'));
    // The Agent group keeps its own and no provider's.
    const agent = await groupView('Agent (chat panel)');
    assert.ok(agent.includes('Provider') && agent.includes('VS Code LM Model'), `Agent: ${agent.join(' | ')}`);
    assert.ok(!agent.some((t) => /Openai|Anthropic|Base URL/.test(t)), `no provider's settings under Agent: ${agent.join(' | ')}`);
    await wb.closeActiveEditor();
    // A search shows the category: never a bare "Model" whose provider cannot be told (VS Code spells it "Openai").
    await searchSettings('browserAgent.agent.openai', (all) => all.some((t) => /Base URL/.test(t)));
    const titles = await wb.page.locator('.settings-editor .setting-item-title').allInnerTexts();
    assert.ok(titles.includes('Browser Agent › Agent › Openai: Model'), `titles: ${titles.join(' | ')}`);
    await wb.screenshot('openai-search');
    await wb.closeActiveEditor();
  });

  it('moved the old keys a user had to the new ones on activation (the user settings file)', async () => {
    await wb.runCommand('Preferences: Open User Settings (JSON)');
    const lines = wb.page.locator('.monaco-editor .view-lines').first();
    const text = await until('the user settings file', async () => {
      const t = (await lines.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
      return /publishMCPServer/.test(t) ? t : undefined;
    });
    assert.match(text, /"browserAgent\.publishMCPServer": false/);
    // Its value was "" when moved; the chat suites that ran before in this host may have picked a model since.
    assert.match(text, /"browserAgent\.agent\.VSCodeLMModel": "[^"]*"/);
    assert.doesNotMatch(text, /browserAgent\.mcp\.publish|vscodeLm\.model/);
    await wb.screenshot('user-settings-moved');
    await wb.closeActiveEditor();
  });
});
