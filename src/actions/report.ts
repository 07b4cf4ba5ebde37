import { clip, fenceInline, fenceTitle, fenceUrl, joinParts } from '../base/untrusted';
import { NO_CHANGE, snapshotDelta } from '../snapshot';
import { shortUrl } from '../snapshot/links';
import type { ToolResult } from '../contract/types';
import type { ActionOutcome, Scope } from './scopeTypes';
import type { SettleReport } from './settle';
import { crashedError } from './hung';
import { errorLines } from './errorLines';
import { ignore } from '../base/ignore';

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
 * A short result: what was done, then what the model did not know yet, each said once — the new URL (unless the
 * action's line names it) and title, new tabs, downloads, dialogs, failed requests and console errors, what
 * changed on the page. Our lines first; everything the page wrote (URL, title, messages, element lines) in one
 * fence at the end.
 */
export async function composeResult(scope: Scope, before: { url: string; title: string; tabId: string }, outcome: ActionOutcome, settle?: SettleReport): Promise<ToolResult> {
  const said = [outcome.text.endsWith('.') ? outcome.text : `${outcome.text}.`, ...(outcome.details ?? [])];
  const page = [...(outcome.page ?? [])];
  const { browser } = scope;
  // A popup opened by the action becomes the active tab.
  let tab = scope.tab;
  try {
    const active = await browser.activeTab();
    if (active.targetId !== tab.targetId) tab = active;
  } catch (e) {
    ignore(e, 'browser gone: reported by the next call');
  }
  // A page can open dozens of windows from one click: name a few (always the active one) and count the rest.
  const opened = scope.browserObs.takeOpenedTabs();
  const active = opened.filter((t) => t.targetId === tab.targetId);
  const keep = new Set([...active, ...opened.filter((t) => !active.includes(t)).slice(0, MAX_TAB_LINES - active.length)]);
  const named = opened.filter((t) => keep.has(t));
  if (named.length < opened.length) said.push(`${opened.length} new tabs opened (${named.length} named here; browser_tabs lists them all).`);
  // Rare lines (new tabs, downloads, dialogs, safety notices) keep their page text fenced in place.
  for (const t of named) {
    said.push(`New tab opened: ${t.title ? fenceTitle(t.title) : '(loading)'} ${fenceUrl(t.url)}${t.targetId === tab.targetId ? ' — now the active tab' : ''} (id ${t.targetId.slice(0, 8)}).`);
  }
  // The model acts on the active tab from now on: say how to get back to the page it was working on.
  if (tab.targetId !== scope.tab.targetId && named.some((t) => t.targetId === tab.targetId)) {
    said.push(`The page you acted on stays open in its own tab: browser_tabs with action "select" and id "${scope.tab.targetId.slice(0, 8)}" goes back to it.`);
  }
  const meta = { target: outcome.target, urlBefore: before.url, urlAfter: tab.url, titleAfter: tab.title };
  // Its renderer died during the action or the wait after it (out of memory, killed): nothing more can be read.
  if (tab.crashed) return { content: [{ type: 'text', text: [joinParts({ said, page }), crashedError(tab).toText()].join('\n') }], isError: true, meta };
  await tab.refreshInfo();
  const delta = tab.dialog ? undefined : await snapshotDelta(tab, { ref: outcome.target?.ref, text: outcome.text }).catch((e) => ignore(e, 'no delta: the report goes without it'));
  // The URL once (not when the action's own line names it, as "Navigated to …" does), shortened like a link.
  if (tab.url !== before.url && !outcome.text.includes(tab.url) && !outcome.page?.some((l) => l.startsWith('URL: '))) page.push(`URL: ${shortUrl(tab.url, before.url)}`);
  // A page without a title shows its URL as one.
  if (tab.title !== before.title && tab.title !== tab.url) page.push(`Title: ${tab.title ? clip(tab.title, 120) : '(none)'}`);
  if (settle?.stillLoading) said.push(`The page is still loading after ${Math.round(settle.waitedMs / 1000)} s; use browser_wait if you need it complete.`);
  if (settle && settle.pendingRequests > 0) said.push(`${settle.pendingRequests} request(s) started by this action are still running (slow server or long-poll).`);
  for (const d of scope.browserObs.takeDownloads()) {
    if (d.blocked) said.push(`BLOCKED_BY_POLICY: ${d.blocked} The download was stopped and its file deleted.`);
    else if (d.state === 'completed') said.push(`Downloaded ${fenceInline(d.filename)} (${d.bytes} bytes) to ${fenceInline(d.path)}`);
    else if (d.state === 'canceled') said.push(`Download of ${fenceInline(d.filename)} was cancelled.`);
    else said.push(`Downloading ${fenceInline(d.filename)} to ${fenceInline(d.path)} (still in progress).`);
  }
  said.push(...modalLines({ ...scope, tab }));
  const errors = errorLines({ tabs: tab === scope.tab ? [tab] : [scope.tab, tab], console: scope.tabObs.takeErrors(), othersCaused: delta ? !delta.newDocument : tab.url === before.url });
  // "No change" would contradict a URL or title line: the elements stayed, the page moved.
  const deltaSaid = (delta?.said ?? []).filter((l) => !(l === NO_CHANGE && page.length));
  said.push(...errors.said, ...deltaSaid);
  page.push(...errors.page, ...(delta?.page ?? []));
  return { content: [{ type: 'text', text: joinParts({ said, page }) }], meta };
}
