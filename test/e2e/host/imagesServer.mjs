// The README's screenshots over https on 127.0.0.1, as a public host would serve them: VS Code's Details page shows
// only https images, so the e2e .vsix is packaged with this server as its images' home (scripts/package.mjs) and the
// UI browser accepts its self-signed certificate. The certificate is a fixed test one in fixtures/images-tls (made
// once with openssl, valid for 100 years): a fresh machine or a user's clone may have no openssl to make one.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';

/** Serves `<repo>/media/screens/*.png` at `https://127.0.0.1:<port>/media/screens/…`; `served` lists each path asked for. */
export async function startImagesServer({ repo }) {
  const tls = join(repo, 'test', 'e2e', 'fixtures', 'images-tls');
  const key = join(tls, 'key.pem');
  const cert = join(tls, 'cert.pem');
  const served = [];
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    // Only the screenshots: a name, no folders, no way out of media/screens.
    const m = /^\/media\/screens\/([\w-]+\.png)$/.exec(path);
    const file = m && join(repo, 'media', 'screens', m[1]);
    if (req.method !== 'GET' || !file || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    served.push(path);
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `https://127.0.0.1:${port}/`, served, close: () => new Promise((r) => server.close(() => r())) };
}
