#!/usr/bin/env node
// The README's screenshots (media/screens/), cut from the real host's e2e screenshots: run the UI suites that take
// them (`npm run test:e2e -- --only ui --ui-suite out/test/e2e/ui/chatTask.suite.js --ui-suite
// out/test/e2e/ui/chatModel.suite.js`), then `node scripts/readme-screens.mjs`. Each is cropped to the part that
// matters and scaled down in headless Chromium (no image tools needed), so the set stays well under 1 MB.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = process.argv[2] ?? join(repo, 'test-artifacts', 'e2e');
const out = join(repo, 'media', 'screens');

/** Source (a name ending of an e2e screenshot), the part of the 1400×900 workbench to keep, and the scale. */
const SHOTS = [
  { name: 'chat-confirm-light', from: /^chat-task-\d+-cards-and-modal\.png$/, clip: { x: 0, y: 30, width: 1100, height: 840 }, scale: 0.7 },
  { name: 'chat-live-view-dark', from: /^chat-task-\d+-live-view-editor-outline-other-theme\.png$/, clip: { x: 0, y: 30, width: 1100, height: 840 }, scale: 0.7 },
  { name: 'model-setup-light', from: /^chat-model-\d+-setup-no-key-light\.png$/, clip: { x: 0, y: 30, width: 350, height: 840 }, scale: 0.75 },
  { name: 'model-setup-dark', from: /^chat-model-\d+-setup-no-key-dark\.png$/, clip: { x: 0, y: 30, width: 350, height: 840 }, scale: 0.75 },
];

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const files = readdirSync(artifacts);
const browser = await chromium.launch({ executablePath: process.env.BA_E2E_CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  let total = 0;
  for (const s of SHOTS) {
    const src = files.find((f) => s.from.test(f));
    if (!src) throw new Error(`no e2e screenshot matches ${s.from} in ${artifacts}: run the UI suites first`);
    const page = await browser.newPage({ viewport: { width: Math.ceil(1400 * s.scale), height: Math.ceil(900 * s.scale) } });
    const data = readFileSync(join(artifacts, src)).toString('base64');
    await page.setContent(`<style>body{margin:0}img{display:block;width:${1400 * s.scale}px}</style><img src="data:image/png;base64,${data}">`);
    await page.locator('img').evaluate((img) => img.decode());
    const file = join(out, `${s.name}.png`);
    const c = s.clip;
    await page.screenshot({ path: file, clip: { x: c.x * s.scale, y: c.y * s.scale, width: c.width * s.scale, height: c.height * s.scale } });
    await page.close();
    total += statSync(file).size;
    console.log(`${s.name}.png ← ${src} (${Math.round(statSync(file).size / 1024)} KB)`);
  }
  console.log(`${SHOTS.length} screenshots, ${Math.round(total / 1024)} KB in all`);
} finally {
  await browser.close();
}
