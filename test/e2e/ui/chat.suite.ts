// The chat panel opens from the command palette and renders (once the chat panel work has landed).
import * as assert from 'node:assert/strict';
import { manifest, Workbench } from './workbench';

describe('UI: chat panel', () => {
  let wb: Workbench | undefined;
  after(async () => {
    await wb?.close();
  });

  it('opens from the command palette and renders its webview', async function () {
    const cmd = manifest().contributes.commands.find((c) => /chat/i.test(c.command) && /open|show|focus/i.test(c.command + c.title));
    if (!cmd) {
      console.log('    SKIPPED: package.json declares no command to open the chat panel yet (chat panel work not merged).');
      this.skip();
    }
    wb = await Workbench.open('chat');
    await wb.runCommand(`${cmd.category ? `${cmd.category}: ` : ''}${cmd.title}`);
    // Webviews are nested iframes; the panel has rendered once its inner document has visible content.
    const deadline = Date.now() + 30_000;
    let rendered = '';
    while (Date.now() < deadline && !rendered) {
      for (const f of wb.page.frames()) {
        if (f === wb.page.mainFrame()) continue;
        const text = await f.evaluate(() => (document.body?.innerText ?? '').trim()).catch(() => '');
        if (text && /webview|vscode-resource|vscode-cdn/.test(f.url() + (await f.evaluate(() => document.baseURI).catch(() => '')))) rendered = text;
      }
      if (!rendered) await new Promise((r) => setTimeout(r, 250));
    }
    await wb.screenshot('chat-panel');
    assert.ok(rendered, 'the chat webview rendered some content');
  });
});
