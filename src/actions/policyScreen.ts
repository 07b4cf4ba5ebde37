import { rmSync } from 'node:fs';
import { confirmDownload } from './guard';
import type { Scope } from './scopeTypes';
import { ignore } from '../base/ignore';

/**
 * Executable downloads an action set off must be confirmed by the user: a risk decision, not an
 * origin rule (a download from a blocked origin never starts: the session's request guard stops
 * it). A call without a guard keeps no download (confirmDownload fails closed); NO_POLICY keeps every one.
 */

/**
 * Asks about each download not yet screened (executables only; confirmDownload decides). Refused:
 * cancelled if still running, deleted if it finished, and marked so the result says so.
 */
export async function screenDownloads(scope: Scope): Promise<void> {
  for (const d of scope.browserObs.downloads.values()) {
    if (d.screened) continue;
    d.screened = true;
    try {
      await confirmDownload(scope.ctx, d.filename, d.url);
    } catch (e) {
      d.blocked = e instanceof Error ? e.message : String(e);
      if (d.state === 'inProgress') await scope.browser.connection.send('Browser.cancelDownload', { guid: d.guid }).catch((e) => ignore(e, 'the download may have finished or gone meanwhile'));
      else if (d.state === 'completed') rmSync(d.path, { force: true });
      d.state = 'canceled';
    }
  }
}
