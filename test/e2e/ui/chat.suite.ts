// The chat panel opens from the command palette and renders.
import * as assert from 'node:assert/strict';
import { manifest, teardown, Workbench } from './workbench';

describe('UI: chat panel', () => {
  let wb: Workbench | undefined;
  teardown(() => wb);

  it('opens from the command palette and renders its webview', async () => {
    const cmd = manifest().contributes.commands.find((c) => /chat/i.test(c.command) && /open|show|focus/i.test(c.command + c.title));
    assert.ok(cmd, 'package.json declares a command that opens the chat panel');
    wb = await Workbench.open('chat');
    await wb.runCommand(`${cmd.category ? `${cmd.category}: ` : ''}${cmd.title}`);
    // Webviews are nested iframes; the panel has rendered once a webview document shows text and a place to
    // type the task.
    const deadline = Date.now() + 30_000;
    let rendered: { text: string; inputs: number } | undefined;
    while (Date.now() < deadline && !rendered) {
      for (const f of wb.page.frames()) {
        if (f === wb.page.mainFrame() || !/webview/.test(f.url())) continue;
        const seen = await f
          .evaluate(() => ({
            text: (document.body?.innerText ?? '').trim(),
            inputs: document.querySelectorAll('textarea, input:not([type=hidden]), [contenteditable="true"]').length,
          }))
          .catch(() => undefined);
        if (seen?.text && seen.inputs > 0) rendered = seen;
      }
      if (!rendered) await new Promise((r) => setTimeout(r, 250));
    }
    await wb.screenshot('chat-panel');
    assert.ok(rendered, 'the chat webview rendered text and an input for the task');
  });
});
