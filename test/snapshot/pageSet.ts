import { takeSnapshot } from '../../src/snapshot';
import type { Tab } from '../../src/session/tab';
import { openPage } from '../helpers/pages';

/**
 * Opens each page of a set served at `baseUrl` and takes both snapshot layers; returns one line per
 * page that failed (empty when all succeeded), so one bad page does not hide the others.
 */
export async function snapshotEachPage(tab: Tab, baseUrl: string, pages: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const p of pages) {
    try {
      await openPage(tab, baseUrl + p);
      const snap = await takeSnapshot(tab);
      if (!new RegExp(`^\\d+ interactive elements\\.\\n<page-content id=\\d+>\\nURL: ${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(snap)) throw new Error(`snapshot does not start with its URL: ${snap.slice(0, 80)}`);
      if (!/^\d+ interactive elements/m.test(snap)) throw new Error('snapshot has no element count');
      const summary = await takeSnapshot(tab, { layer: 'summary' });
      if (!summary.includes(baseUrl + p)) throw new Error('summary does not name the page');
    } catch (e) {
      failures.push(`${p}: ${(e as Error).message}`);
    }
  }
  return failures;
}
