// Runs browserless on Node 24 with only its Chromium routes (the Chrome, Edge, Firefox and WebKit binaries are
// not on these machines, and it refuses to start without them). Configured by its own environment variables
// (PORT, HOST, TOKEN, CONCURRENT, QUEUED, TIMEOUT, DEBUG); BROWSERLESS_ENTRY is the installed package's entry.
import { pathToFileURL } from 'node:url';

const { Browserless, BrowserlessRoutes } = await import(pathToFileURL(process.env.BROWSERLESS_ENTRY).href);
const server = new Browserless();
server.disableRoutes(...Object.keys(BrowserlessRoutes).filter((k) => /^(Chrome|Edge|Firefox|WebKit)/.test(k)).map((k) => BrowserlessRoutes[k]));
await server.start();
process.stdout.write('browserless started\n');
