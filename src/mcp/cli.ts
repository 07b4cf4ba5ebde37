// browser-agent-mcp: the stdio MCP server (issue 4). stdout carries only JSON-RPC; logs go to stderr.
import { parseArgs } from 'node:util';
import { allTools } from '../tools/registry';
import { createMcpContext, type McpOptions } from './context';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { mcpSkillFolders } from '../skills/folders';
import { SkillLibrary } from '../skills/library';
import { auditDirFromArgs, createMcpAudit } from '../audit/mcp';
import { createMcpSafety } from '../safety/mcp';
import { createToolPipeline } from '../safety/pipeline';
import { createMcpServer, SERVER_VERSION } from './server';
import { shutdown as closeAll } from '../runtime/shutdown';
import { RELAY_ENDPOINT } from '../session/relayProtocol';
import { DEFAULT_MAX_INPUT_BYTES, LimitedStdioTransport } from './stdioTransport';

const HELP = `browser-agent-mcp — Browser Agent's MCP server (stdio)

Options:
  --cdp-url <url>          attach to a running Chrome (http://host:port or ws://…); works in the page
                           the user has open and focused, even when DevTools or another tool is
                           attached to it (its own tab when another Browser Agent works there)
  --extension              drive the Chrome you use every day through the companion Chrome extension:
                           only the tabs you share there (needs the session daemon; pair first with
                           "Browser Agent: Pair Chrome Extension" or \`browser-agent-daemon pair\`)
  --attach-tab <mode>      with --cdp-url: "focused" (default) or "new" (always a tab of its own)
  --cdp-header <h>         with --cdp-url: an HTTP header for the connection, "Name: value" (repeatable;
                           for engines that take an API key in a header)
  --remote-browser <mode>  with --cdp-url to a remote-browser engine that starts a browser per connection
                           (browserless, Browserbase, Steel, Hyperbrowser: a ws(s):// URL that is not a
                           Chrome's /devtools/browser/…): "per-session" (default) gives each session its
                           own remote browser (one connection, one pool slot); "shared" puts every
                           session of the session daemon in one remote browser, each in its own tab.
                           See docs/fleets.md
  --headless               run the launched browser headless
  --user-data-dir <dir>    persistent profile for the launched browser
  --executable-path <path> Chrome/Chromium binary to launch
  --browser-arg <switch>   extra Chromium switch (repeatable)
  --allowed-origins <list> comma-separated origins/globs the agent may use (others are blocked)
  --blocked-origins <list> comma-separated origins/globs the agent must not use
  --downloads-dir <dir>    where downloads are saved (default: <tmp>/browser-agent-downloads)
  --allow-schemes <list>   extra URL schemes browser_navigate may open (e.g. file)
  --max-wait-ms <ms>       cap for any wait (default 30000)
  --snapshot-max-tokens <n>
                           token budget of a snapshot the model asks for without one (default 16000,
                           200–200000); a longer page is cut between lines and says how to read on
  --snapshot-fold-text-after <n>
                           on a long page, fold the text past this many tokens (default 3000; 0 never
                           folds): every element, heading and section is still listed, and a note
                           names the offset that reads the text
  --allow-confirm-actions  run actions the safety policy would confirm when the client cannot be asked
                           (no MCP elicitation); without it they are blocked
  --secrets-file <path>    .env-style file of secrets the model may type as {{secret:NAME}}
  --secret-origins <list>  bind secrets to origins: NAME@https://bank.example,… (typed only there)
  --audit-dir <dir>        where the JSONL audit log of every step goes
                           (default: ~/.browser-agent/audit; "off" disables it)
  --no-daemon              drive the browser from this process instead of the per-user session daemon
                           (by default every client shares one browser through browser-agent-daemon,
                           each in its own tab)
  --max-input-bytes <n>    largest JSON-RPC message accepted on stdin (default 4194304); bigger ones
                           get an error reply and the server keeps running
  --skills-dir <dir>       folder of SKILL.md site skills (repeatable; default: ./.browser-agent/skills,
                           ~/.browser-agent/skills and the shipped examples; "off" disables skills)
  --help, --version`;

/** `--cdp-header "Name: value"` options, and BROWSER_AGENT_CDP_HEADERS (JSON, from the extension: off the command line). */
function parseHeaders(given: string[]): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  const env = process.env.BROWSER_AGENT_CDP_HEADERS;
  if (env) {
    try {
      Object.assign(headers, JSON.parse(env));
    } catch {
      throw new Error('BROWSER_AGENT_CDP_HEADERS must be a JSON object of header names and values');
    }
  }
  for (const h of given) {
    const m = /^([!#$%&'*+.^_`|~\w-]+):\s*(.*)$/.exec(h);
    if (!m) throw new Error('--cdp-header must be "Name: value" (the value is not shown here: it may be a key)');
    headers[m[1]] = m[2];
  }
  return Object.keys(headers).length ? headers : undefined;
}

function list(v?: string): string[] {
  return (v ?? '').split(/[,;]/).map((s) => s.trim()).filter(Boolean);
}

export function parseCli(argv: string[]): McpOptions & { help?: boolean; version?: boolean; maxInputBytes?: number } {
  const { values } = parseArgs({
    args: argv,
    options: {
      'cdp-url': { type: 'string' },
      extension: { type: 'boolean' },
      'attach-tab': { type: 'string' },
      'cdp-header': { type: 'string', multiple: true },
      'remote-browser': { type: 'string' },
      headless: { type: 'boolean' },
      'user-data-dir': { type: 'string' },
      'executable-path': { type: 'string' },
      'browser-arg': { type: 'string', multiple: true },
      'allowed-origins': { type: 'string' },
      'blocked-origins': { type: 'string' },
      'downloads-dir': { type: 'string' },
      'allow-schemes': { type: 'string' },
      'max-wait-ms': { type: 'string' },
      'snapshot-max-tokens': { type: 'string' },
      'snapshot-fold-text-after': { type: 'string' },
      'allow-confirm-actions': { type: 'boolean' },
      'secrets-file': { type: 'string' },
      'secret-origins': { type: 'string' },
      'audit-dir': { type: 'string' },
      'no-daemon': { type: 'boolean' },
      'max-input-bytes': { type: 'string' },
      'skills-dir': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
    strict: true,
  });
  const attachTab = values['attach-tab'];
  if (attachTab !== undefined && attachTab !== 'focused' && attachTab !== 'new') throw new Error(`--attach-tab must be "focused" or "new" (got "${attachTab}")`);
  if (values.extension && values['no-daemon']) throw new Error('--extension needs the session daemon (it owns the relay to the Chrome extension): drop --no-daemon');
  if (values.extension && values['cdp-url']) throw new Error('--extension and --cdp-url are two different browsers: give one');
  const remoteBrowser = values['remote-browser'];
  if (remoteBrowser !== undefined && remoteBrowser !== 'per-session' && remoteBrowser !== 'shared') throw new Error(`--remote-browser must be "per-session" or "shared" (got "${remoteBrowser}")`);
  if (remoteBrowser !== undefined && !values['cdp-url']) throw new Error('--remote-browser is about a --cdp-url endpoint: give one');
  if (remoteBrowser === 'shared' && values['no-daemon']) throw new Error('--remote-browser shared needs the session daemon (it holds the one connection every session shares): drop --no-daemon');
  if (values['cdp-header'] && !values['cdp-url']) throw new Error('--cdp-header is sent to a --cdp-url endpoint: give one');
  const headers = parseHeaders(values['cdp-header'] ?? []);
  const maxWait = values['max-wait-ms'] ? Number(values['max-wait-ms']) : undefined;
  if (maxWait !== undefined && !(maxWait >= 1000)) throw new Error('--max-wait-ms must be a number ≥ 1000');
  const snapshotMax = values['snapshot-max-tokens'] ? Number(values['snapshot-max-tokens']) : undefined;
  if (snapshotMax !== undefined && !(Number.isInteger(snapshotMax) && snapshotMax >= 200 && snapshotMax <= 200_000)) throw new Error('--snapshot-max-tokens must be a whole number from 200 to 200000');
  const foldAfter = values['snapshot-fold-text-after'] !== undefined ? Number(values['snapshot-fold-text-after']) : undefined;
  if (foldAfter !== undefined && !(Number.isInteger(foldAfter) && foldAfter >= 0 && foldAfter <= 200_000)) throw new Error('--snapshot-fold-text-after must be a whole number from 0 to 200000 (0: never fold)');
  const maxInput = values['max-input-bytes'] ? Number(values['max-input-bytes']) : undefined;
  if (maxInput !== undefined && !(Number.isInteger(maxInput) && maxInput >= 65_536)) throw new Error('--max-input-bytes must be a whole number ≥ 65536');
  return {
    cdpUrl: values.extension ? RELAY_ENDPOINT : values['cdp-url'],
    attachTab,
    headers,
    remoteBrowser,
    headless: values.headless,
    userDataDir: values['user-data-dir'],
    executablePath: values['executable-path'],
    browserArgs: values['browser-arg'],
    allowedOrigins: list(values['allowed-origins']),
    blockedOrigins: list(values['blocked-origins']),
    downloadsDir: values['downloads-dir'],
    allowedSchemes: list(values['allow-schemes']),
    maxWaitMs: maxWait,
    snapshotMaxTokens: snapshotMax,
    snapshotFoldTextAfter: foldAfter,
    daemon: !values['no-daemon'],
    maxInputBytes: maxInput,
    skillsDirs: values['skills-dir'],
    help: values.help,
    version: values.version,
  };
}

/** `browser-agent-mcp`: serves MCP over stdio until stdin ends or a signal comes. */
export async function runMcpServer(): Promise<void> {
  let opts: ReturnType<typeof parseCli>;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`browser-agent-mcp: ${(e as Error).message}\n\n${HELP}\n`);
    process.exit(2);
  }
  if (opts.help) return void process.stdout.write(`${HELP}\n`);
  if (opts.version) return void process.stdout.write(`${SERVER_VERSION}\n`);
  const log = {
    info: (m: string) => process.stderr.write(`[browser-agent] ${m}\n`),
    warn: (m: string) => process.stderr.write(`[browser-agent] warning: ${m}\n`),
    error: (m: string) => process.stderr.write(`[browser-agent] error: ${m}\n`),
  };
  let server: ReturnType<typeof createMcpServer> | undefined;
  const { ctx, sessions } = createMcpContext({ ...opts, clientName: () => server?.getClientVersion()?.name }, log);
  const skillFolders = mcpSkillFolders(opts.skillsDirs, process.cwd(), dirname(__dirname));
  if (skillFolders) ctx.skills = new SkillLibrary(skillFolders, { watch: true });
  const safety = createMcpSafety(() => server, process.argv.slice(2), process.env);
  const auditDir = auditDirFromArgs(process.argv.slice(2)) ?? join(homedir(), '.browser-agent', 'audit');
  const audit = auditDir === 'off' ? undefined : createMcpAudit(auditDir);
  const pipeline = createToolPipeline({ decider: safety.decider, vault: safety.vault, record: audit?.record });
  server = createMcpServer(allTools.map(pipeline.tool), ctx, pipeline.hooks());
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    // The browser first (a call still running ends at once and is recorded), then the audit's closing record.
    await closeAll({ sessions, audit: audit && { dispose: () => audit.close() } });
    process.exit(0);
  };
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  server.onerror = (e) => log.warn(`MCP input: ${e.message}`);
  await server.connect(new LimitedStdioTransport(opts.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES));
  server.onclose = () => void shutdown();
}
