// How the scripted agent speaks to each MCP server: how to launch it on the machine's Chromium, the tool calls
// for each step, and how to read the element lines of its results (a ref, a role and a name per line).
import { join } from 'node:path';

const CHROME = process.env.CHROME ?? '/usr/bin/chromium';
const name = '"((?:[^"\\\\]|\\\\.)*)"';

/** Ours: `[12] button "Save"`, deltas `+ [12] …` / `~ [12] "Save" …` (a changed line may leave out its role). */
const ours = (root) => ({
  name: 'ours',
  args: [join(root, 'dist/mcp.js'), '--headless', '--no-daemon', '--audit-dir', 'off', '--allow-confirm-actions', '--executable-path', CHROME, '--browser-arg=--no-sandbox'],
  lineRe: new RegExp(`^(?:[+~] )?\\[((?:f\\d+:)?\\d+)\\](?: ([a-z]+))?(?: ${name})?`),
  removedRe: /^- \[((?:f\d+:)?\d+)\]/,
  pick: (m) => ({ ref: m[1], role: m[2], name: m[3] }),
  /** A result after which the refs the agent knows name nothing (another document); a snapshot always replaces them. */
  resets: (tool, text) => tool === 'navigate' || /^New page\b/m.test(text),
  calls: {
    navigate: (url) => ['browser_navigate', { url }],
    snapshot: () => ['browser_snapshot', {}],
    click: (el) => ['browser_click', { ref: el.ref }],
    type: (el, text) => ['browser_type', { ref: el.ref, text }],
    select: (el, label) => ['browser_select_option', { ref: el.ref, values: [label] }],
  },
});

/** Playwright MCP: `- button "Save" [ref=e12]`; action results link their snapshot as a file. */
const playwright = (root) => ({
  name: 'playwright-mcp',
  args: [join(root, 'node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated', '--no-sandbox', '--executable-path', CHROME],
  lineRe: new RegExp(`^\\s*- '?([a-z]+)(?: ${name})?[^\\n]*?\\[ref=([^\\]]+)\\]`),
  pick: (m) => ({ ref: m[3], role: m[1], name: m[2] }),
  resets: (tool) => tool === 'navigate',
  calls: {
    navigate: (url) => ['browser_navigate', { url }],
    snapshot: () => ['browser_snapshot', {}],
    click: (el) => ['browser_click', { element: el.name ?? el.role, target: el.ref }],
    type: (el, text) => ['browser_type', { element: el.name ?? el.role, target: el.ref, text }],
    select: (el, label) => ['browser_select_option', { element: el.name ?? el.role, target: el.ref, values: [label] }],
  },
});

/** chrome-devtools-mcp: `uid=1_12 button "Save"`, one page (id 1). */
const devtools = (root) => ({
  name: 'chrome-devtools-mcp',
  args: [join(root, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'), '--headless', '--isolated', '--executablePath', CHROME, '--usageStatistics=false', '--chromeArg=--no-sandbox'],
  lineRe: new RegExp(`^\\s*uid=(\\S+) ([A-Za-z]+)(?: ${name})?`),
  pick: (m) => ({ ref: m[1], role: m[2], name: m[3] }),
  resets: (tool) => tool === 'navigate',
  calls: {
    navigate: (url) => ['navigate_page', { pageId: 1, type: 'url', url }],
    snapshot: () => ['take_snapshot', { pageId: 1 }],
    click: (el) => ['click', { pageId: 1, uid: el.ref }],
    type: (el, text) => ['fill', { pageId: 1, uid: el.ref, value: text }],
    select: (el, label) => ['fill', { pageId: 1, uid: el.ref, value: label }],
  },
});

export const SERVERS = { ours, 'playwright-mcp': playwright, 'chrome-devtools-mcp': devtools };
