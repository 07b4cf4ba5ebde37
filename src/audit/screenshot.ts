import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { withSecretFieldsMasked } from '../session/maskSecrets';
import type { Tab } from '../session/tab';

/** Time we allow a screenshot before giving up on it: the audit must never stall an action. */
const SHOT_TIMEOUT_MS = 5000;

/**
 * Captures the tab's viewport with Page.captureScreenshot into `dir/name` (JPEG keeps a task
 * folder small). Returns the file name, or undefined when the page cannot be captured (closed,
 * crashed, dialog open); the log then simply has no picture for that moment.
 */
export async function captureScreenshot(tab: Tab, dir: string, name: string): Promise<string | undefined> {
  try {
    if (tab.closed || tab.crashed || tab.dialog) return undefined;
    const session = await tab.session();
    const { data } = await withSecretFieldsMasked(tab, () => session.send('Page.captureScreenshot', { format: 'jpeg', quality: 70 }, SHOT_TIMEOUT_MS));
    await fs.writeFile(join(dir, name), Buffer.from(data, 'base64'), { mode: 0o600 });
    return name;
  } catch {
    return undefined;
  }
}
