import { clip, fenceInline, fenceTitle, fenceUrl } from '../base/untrusted';
import { snapshotDelta } from '../snapshot';
import type { ToolResult } from '../contract/types';
import type { ActionOutcome, Scope } from './scopeTypes';
import type { SettleReport } from './settle';
import { crashedError } from './hung';
import { failedRequestLines } from './failedRequests';

/** New tabs named one by one in a result; more are counted. */
const MAX_TAB_LINES = 5;

/** The modal states that block or await the model, as lines pointing at the tool that clears them. */
export function modalLines(scope: Scope): string[] {
  const out: string[] = [];
  const d = scope.tab.dialog;
  if (d) {
    out.push(`Dialog open: ${d.type} ${fenceInline(clip(d.message, 300))}${d.defaultPrompt ? ` (default ${fenceInline(clip(d.defaultPrompt, 120))})` : ''}. The page is blocked until you answer it with browser_handle_dialog.`);
  }
  const fc = scope.tabObs.fileChooser;
  if (fc) out.push(`File chooser open (${fc.mode === 'selectMultiple' ? 'several files' : 'one file'}): choose files with browser_upload_file.`);
  return out;
}

/**
 * A short result: what was done, URL/title if they changed, new tabs, dialogs, downloads, console
 * errors since the last call, and what changed on the page.
 */
/** Whether the snapshot delta already names the new URL (fenced, with its own nonce). */
function deltaShowsUrl(delta: string | undefined, url: string): boolean {
  return !!delta && delta.split('\n').some((l) => l.startsWith('URL: ') && l.replace(/<\/?page-content id=[0-9a-f]+>/g, '').endsWith(`→ ${url}`));
}

export async function composeResult(scope: Scope, before: { url: string; title: string; tabId: string }, outcome: ActionOutcome, settle?: SettleReport): Promise<ToolResult> {
  const lines = [outcome.text.endsWith('.') ? outcome.text : `${outcome.text}.`, ...(outcome.details ?? [])];
  const { browser } = scope;
  // A popup opened by the action becomes the active tab.
  let tab = scope.tab;
  try {
    const active = await browser.activeTab();
    if (active.targetId !== tab.targetId) tab = active;
  } catch {
    /* browser gone: reported by the next call */
  }
  // A page can open dozens of windows from one click: name a few (always the active one) and count the rest.
  const opened = scope.browserObs.takeOpenedTabs();
  const active = opened.filter((t) => t.targetId === tab.targetId);
  const keep = new Set([...active, ...opened.filter((t) => !active.includes(t)).slice(0, MAX_TAB_LINES - active.length)]);
  const named = opened.filter((t) => keep.has(t));
  if (named.length < opened.length) lines.push(`${opened.length} new tabs opened (${named.length} named here; browser_tabs lists them all).`);
  for (const t of named) {
    lines.push(`New tab opened: ${t.title ? fenceTitle(t.title) : '(loading)'} ${fenceUrl(t.url)}${t.targetId === tab.targetId ? ' — now the active tab' : ''} (id ${t.targetId.slice(0, 8)}).`);
  }
  // The model acts on the active tab from now on: say how to get back to the page it was working on.
  if (tab.targetId !== scope.tab.targetId && named.some((t) => t.targetId === tab.targetId)) {
    lines.push(`The page you acted on stays open in its own tab: browser_tabs with action "select" and id "${scope.tab.targetId.slice(0, 8)}" goes back to it.`);
  }
  // Its renderer died during the action or the wait after it (out of memory, killed): nothing more can be read.
  if (tab.crashed) return { content: [{ type: 'text', text: [...lines, crashedError(tab).toText()].join('\n') }], isError: true, meta: { target: outcome.target, urlBefore: before.url, urlAfter: tab.url, titleAfter: tab.title } };
  await tab.refreshInfo();
  // The snapshot delta (when the snapshot layer is present) already names URL/title changes.
  const delta = tab.dialog ? undefined : await snapshotDelta(tab).catch(() => undefined);
  if (tab.url !== before.url && !deltaShowsUrl(delta, tab.url)) lines.push(`URL: ${fenceUrl(tab.url)}`);
  if ((tab.title !== before.title || tab.url !== before.url) && !delta?.includes(`→ ${JSON.stringify(tab.title)}`)) lines.push(`Title: ${tab.title ? fenceTitle(tab.title) : '(none)'}`);
  if (settle?.stillLoading) lines.push(`The page is still loading after ${Math.round(settle.waitedMs / 1000)} s; use browser_wait if you need it complete.`);
  if (settle && settle.pendingRequests > 0) lines.push(`${settle.pendingRequests} request(s) started by this action are still running (slow server or long-poll).`);
  for (const d of scope.browserObs.takeDownloads()) {
    if (d.blocked) lines.push(`BLOCKED_BY_POLICY: ${d.blocked} The download was stopped and its file deleted.`);
    else if (d.state === 'completed') lines.push(`Downloaded ${fenceInline(d.filename)} (${d.bytes} bytes) to ${fenceInline(d.path)}`);
    else if (d.state === 'canceled') lines.push(`Download of ${fenceInline(d.filename)} was cancelled.`);
    else lines.push(`Downloading ${fenceInline(d.filename)} to ${fenceInline(d.path)} (still in progress).`);
  }
  lines.push(...modalLines({ ...scope, tab }));
  const errors = scope.tabObs.takeErrors();
  if (errors.length) lines.push(`Console errors (${errors.length}, page text):`, ...errors.slice(0, 5).map((e) => `  ${fenceInline(e)}`));
  lines.push(...failedRequestLines(tab === scope.tab ? [tab] : [scope.tab, tab]));
  if (delta) lines.push(delta);
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    meta: { target: outcome.target, urlBefore: before.url, urlAfter: tab.url, titleAfter: tab.title },
  };
}
