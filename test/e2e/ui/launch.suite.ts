// A person's path: command palette → "Browser Agent: Launch Browser" → the status bar shows the connected
// browser → "Browser Agent: Close Browser" → back to "none".
import * as assert from 'node:assert/strict';
import { teardown, Workbench } from './workbench';

describe('UI: launch and close from the command palette', () => {
  let wb: Workbench;
  before(async () => {
    wb = await Workbench.open('launch');
    await wb.screenshot('workbench-ready');
  });
  teardown(() => wb);

  it('F1 → "Browser Agent: Launch Browser" turns the status bar item to the connected browser', async () => {
    assert.match(await wb.statusText(), /Browser: none/);
    await wb.runCommand('Browser Agent: Launch Browser');
    await wb.statusItem(/Browser: (about:blank|New Tab)/).waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await wb.statusText(), /^Browser: (about:blank|New Tab)$/);
    await wb.screenshot('browser-connected');
  });

  it('F1 → "Browser Agent: Close Browser" turns it back to none', async () => {
    await wb.runCommand('Browser Agent: Close Browser');
    await wb.statusItem(/Browser: none/).waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('browser-closed');
  });
});
