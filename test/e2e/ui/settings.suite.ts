// The snapshot settings as a person finds them: the Settings editor, searched for "snapshot", shows both with
// their titles, defaults and descriptions under Browser Agent (a screenshot is left in test-artifacts/e2e/).
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
});
