// The extension's Details page as a person opens it (Extensions view → Browser Agent): the README with its
// screenshots loaded. VS Code shows only https images there, so run.mjs serves media/screens/ over https on
// 127.0.0.1 and packages the .vsix with that address as the images' home (scripts/package.mjs), as a publisher
// does with BROWSER_AGENT_IMAGES_URL.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { teardown, until, Workbench } from './workbench';

const README = readFileSync(join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
/** The screenshots the README shows, as written (relative: GitHub shows them from the repository). */
const SCREENS = [...README.matchAll(/!\[[^\]]*\]\((media\/screens\/[\w-]+\.png)\)/g)].map((m) => m[1]);

function imagesServer(): { url: string; served: string[] } {
  const images = (globalThis as { __baE2eImages?: { url: string; served: string[] } }).__baE2eImages;
  if (!images) throw new Error('no README images server: run the UI suite through `npm run test:e2e`');
  return images;
}

interface Shown {
  src: string;
  alt: string;
  complete: boolean;
  width: number;
}

describe('UI: the Details page shows the README with its screenshots', function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async () => {
    wb = await Workbench.open('details');
  });
  teardown(() => wb);

  /** The webview document of the Details page (nested iframes) once it shows the README's first heading. */
  async function detailsFrame(): Promise<Frame> {
    return until('the Details page with the README', async () => {
      for (const f of wb.page.frames()) {
        if (f === wb.page.mainFrame()) continue;
        const h1 = await f.locator('h1').first().innerText({ timeout: 500 }).catch(() => '');
        if (/Browser Agent for VS Code/.test(h1)) return f;
      }
      return undefined;
    }, 60_000);
  }

  /** Extensions view → Installed → Browser Agent: its page opens on Details. */
  async function openDetails(): Promise<Frame> {
    await wb.runCommand('Extensions: Show Installed Extensions');
    // Its own row, not the test-only helpers' ("Browser Agent E2E Helper", "Browser Agent test language model").
    const item = wb.page.locator('.extensions-viewlet .monaco-list-row').filter({ has: wb.page.locator('.name', { hasText: /^\s*Browser Agent\s*$/ }) }).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await item.click();
    return detailsFrame();
  }

  /** The README's images in the page, once each has finished loading (or failed). */
  async function images(frame: Frame): Promise<Shown[]> {
    // VS Code leaves out every image that is not https: then none is in the page and this times out.
    return until(`the README's ${SCREENS.length} screenshots in the Details page, each finished loading`, async () => {
      const seen = await frame.locator('img').evaluateAll((els) =>
        (els as HTMLImageElement[]).map((i) => ({ src: i.currentSrc || i.src, alt: i.alt, complete: i.complete, width: i.naturalWidth })),
      );
      const screens = seen.filter((i) => /media\/screens\//.test(i.src));
      return screens.length >= SCREENS.length && screens.every((i) => i.complete) ? screens : undefined;
    });
  }

  const isLight = async () => (await wb.page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes('vs') ?? false;

  it('every screenshot of the README is loaded from its https home (naturalWidth > 0), in both themes', async () => {
    assert.ok(SCREENS.length >= 3, `the README shows screenshots: ${SCREENS.join(', ')}`);
    const server = imagesServer();
    const frame = await openDetails();
    const shown = await images(frame);
    assert.deepEqual(
      shown.map((i) => i.src),
      SCREENS.map((s) => `${server.url}${s}`),
      'each relative link went to the images home, in the README order',
    );
    for (const i of shown) assert.ok(i.width > 0, `loaded: ${i.src} (${i.alt})`);
    for (const s of SCREENS) assert.ok(server.served.includes(`/${s}`), `the server was asked for /${s}: ${server.served.join(', ')}`);
    await frame.locator('img[src*="media/screens/"]').first().scrollIntoViewIfNeeded();
    const first = await isLight();
    await wb.screenshot(`screens-${first ? 'light' : 'dark'}`);

    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the other theme', async () => (await isLight()) !== first);
    const again = await images(await detailsFrame());
    for (const i of again) assert.ok(i.width > 0, `loaded in the other theme: ${i.src}`);
    await (await detailsFrame()).locator('img[src*="media/screens/"]').first().scrollIntoViewIfNeeded();
    await wb.screenshot(`screens-${first ? 'dark' : 'light'}`);
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the first theme again', async () => (await isLight()) === first);
    // The suites after this one start with the editor area as it was.
    await wb.closeActiveEditor();
  });
});
