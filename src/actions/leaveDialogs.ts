import { fenceInline } from '../base/untrusted';
import type { BrowserSession } from '../session/browserSession';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import { sleep } from '../session/launcher';
import { stopHungPage, type Recovery } from './hung';
import { ignore } from '../base/ignore';

/**
 * A tool that leaves the page (navigate, reload, back, forward) while an alert, confirm or prompt is
 * open. The page's main thread waits inside the dialog, so the new document can never commit while
 * it is up, and a page may open the next one the moment one is answered (`for (;;) alert()`), which
 * would trap a model that answers them one by one for ever. Leaving is what the model asked for:
 * dismiss the dialog (as a browser does when you navigate away), and when the page answers with
 * another dialog a few times running, stop its renderer like a hung page. A beforeunload dialog is
 * the page asking about this very departure: the model answers it with browser_handle_dialog.
 */

/** Dialogs dismissed in a row before the page counts as a dialog loop. */
const MAX_DIALOGS = 3;
/** How long the page may take, after a dismissal, to open its next dialog or become idle. */
const SETTLE_MS = 1500;

function closed(tab: Tab, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      tab.off('dialogClosed', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    tab.on('dialogClosed', done);
  });
}

/**
 * True once the page's main thread ran a trivial script twice, 100 ms apart, with no dialog in between;
 * false when a dialog opened or it stayed busy. The pause lets a page that alerts again from a timer
 * (`setTimeout(again, 0)`) do so before we call it free.
 */
async function freeAfterDismissal(tab: Tab, page: CdpSession): Promise<boolean> {
  let off = () => {};
  const opened = new Promise<false>((resolve) => {
    const on = () => resolve(false);
    tab.once('dialog', on);
    off = () => tab.off('dialog', on);
  });
  const probe = () => page.send('Runtime.evaluate', { expression: '0', returnByValue: true }, SETTLE_MS).then(() => !tab.dialog, () => false);
  const ran = (async () => (await probe()) && (await sleep(100), !tab.dialog) && (await probe()))();
  try {
    return await Promise.race([ran, opened]);
  } finally {
    off();
  }
}

/**
 * Dismisses the open alert/confirm/prompt before the page is left. Returns what was done (one line
 * for the result), or undefined when there was nothing to do.
 */
export async function leaveDialogs(browser: BrowserSession, tab: Tab, page: CdpSession): Promise<Recovery | undefined> {
  const first = tab.dialog;
  if (!first || first.type === 'beforeunload') return undefined;
  const what = (d: NonNullable<Tab['dialog']>) => `${d.type} ${fenceInline(d.message.slice(0, 100))}`;
  let last = first;
  for (let n = 1; n <= MAX_DIALOGS; n++) {
    const d = tab.dialog;
    if (!d || d.type === 'beforeunload') break;
    last = d;
    const session = d.sessionId === page.id ? page : (tab.frameSessions().find((f) => f.session.id === d.sessionId)?.session ?? page);
    const gone = closed(tab, 1000);
    await session.send('Page.handleJavaScriptDialog', { accept: false }, 2000).catch((e) => ignore(e, 'the dialog may have closed on its own; the wait below tells'));
    await gone;
    if (tab.dialog === d) tab.dialog = undefined;
    if (await freeAfterDismissal(tab, page)) return { text: n === 1 ? `Dismissed the ${what(first)} to leave the page` : `Dismissed ${n} dialogs (the last: ${what(last)}) to leave the page` };
  }
  if (tab.dialog?.type === 'beforeunload') return { text: `Dismissed the ${what(last)}` };
  // The page opens dialog after dialog, or stays busy after one: its renderer is stopped, as for a hung page.
  const why = tab.dialog ? `The page kept opening dialogs (${MAX_DIALOGS} dismissed, the last: ${what(last)})` : `The page stayed busy after its ${what(last)} was dismissed`;
  const r = await stopHungPage(browser, tab, page, why);
  tab.dialog = undefined;
  return r;
}
