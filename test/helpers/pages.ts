import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Tab } from '../../src/session/tab';

/** The repository's root: the nearest folder above this (bundled) file with the project's package.json. */
function repoRoot(from = __dirname): string {
  for (let d = from; dirname(d) !== d; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'test', 'fixtures', 'pages'))) return d;
  }
  throw new Error(`no repository root above ${from}`);
}

/** The in-repository real-page fixtures (test/fixtures/pages, see its README). */
export const FIXTURE_PAGES_DIR = join(repoRoot(), 'test', 'fixtures', 'pages');

/** `{ '/name.html': html }` for every page in `dir`, for startServer. */
export function pageRoutes(dir: string, pages = readdirSync(dir).filter((f) => f.endsWith('.html')).sort()): Record<string, string> {
  return Object.fromEntries(pages.map((p) => ['/' + p, readFileSync(join(dir, p), 'utf8')]));
}

/**
 * Opens `url` in the tab and waits for its load event, answering any JavaScript dialog the page opens
 * on load (real pages alert(); a dialog blocks the load event until it is answered).
 */
export async function openPage(tab: Tab, url: string, timeoutMs = 20_000): Promise<void> {
  const session = await tab.session();
  const off = session.on('Page.javascriptDialogOpening', () => void session.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => {}));
  try {
    const loaded = session.waitFor('Page.loadEventFired', () => true, timeoutMs);
    await session.send('Page.navigate', { url });
    await loaded;
    for (let i = 0; i < 50 && tab.dialog; i++) await new Promise((r) => setTimeout(r, 20));
  } finally {
    off();
  }
}
