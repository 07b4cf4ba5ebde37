// Runs the in-host mocha suite the way @vscode/test-web does: open the workbench with a development-mode
// payload (extensionDevelopmentPath + extensionTestsPath) and listen on window.codeAutomationLog /
// window.codeAutomationExit, which the workbench calls with the suite's output and the host's exit code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOG_PREFIX = '[in-host] '; // see inhost/extension.ts

export async function runInHostSuite({ browser, server, testExtensionDir, testsIndex, artifactsDir, timeoutMs = 8 * 60_000, print }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const lines = [];
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = (Array.isArray(args) ? args : [args]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    lines.push(`[${type}] ${text}`);
    // The suite tags its own lines; everything else (the workbench's logs) goes to the artifact file only.
    if (text.startsWith(LOG_PREFIX)) print(`${text.slice(LOG_PREFIX.length)}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  page.on('pageerror', (e) => lines.push(`[page error] ${e.message}`));

  const url = server.url([
    ['extensionDevelopmentPath', server.remoteUri(testExtensionDir)],
    ['extensionTestsPath', server.remoteUri(testsIndex)],
  ]);
  const started = Date.now();
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  let timer;
  const timeout = new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
  const code = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  try {
    await page.screenshot({ path: join(artifactsDir, 'inhost-end.png') });
  } catch {
    /* the page may be gone once the host exited */
  }
  writeFileSync(join(artifactsDir, 'inhost-workbench-log.txt'), lines.join('\n') + '\n');
  await context.close();
  if (code === 'timeout') return { ok: false, reason: `the in-host suite did not finish within ${timeoutMs} ms`, ms: Date.now() - started };
  return { ok: code === 0, reason: code === 0 ? '' : `the extension host exited with code ${code}`, ms: Date.now() - started };
}
