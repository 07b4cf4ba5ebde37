// The Node command lines (browser-agent-mcp, browser-agent-daemon) share one bundle, dist/cli.js: the two
// used to be separate bundles that each carried the whole engine (zod, yaml, the tools, the session), which
// made the .vsix ~32 KB bigger. dist/mcp.js and dist/daemon.js are small launchers (esbuild.mjs).
export { runMcpServer } from './mcp/cli';
export { runDaemonCli } from './daemon/cli';
