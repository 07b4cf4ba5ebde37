import { randomBytes } from 'node:crypto';

/** The editor-area live view's page (its script: media/liveView.ts): strict CSP (only our script, with its nonce; pictures as data: URLs), styles inline with the nonce. */
export function liveViewHtml(csp: string, script: string): string {
  const nonce = randomBytes(16).toString('base64');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${csp} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'">
<style nonce="${nonce}">
body{margin:0;padding:8px;color:var(--vscode-foreground);font-family:var(--vscode-font-family);font-size:var(--vscode-font-size)}
#bar{display:flex;gap:8px;align-items:center;margin-bottom:6px}
#state{font-size:11px;padding:1px 6px;border-radius:8px;background:var(--vscode-badge-background);color:var(--vscode-badge-foreground);white-space:nowrap}
#url{font-family:var(--vscode-editor-font-family);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--vscode-textLink-foreground)}
#stage{position:relative}
img{display:block;max-width:100%;border:1px solid var(--vscode-panel-border)}
img.stale{opacity:.35;filter:grayscale(1)}
#empty{color:var(--vscode-descriptionForeground);font-style:italic}
.highlight{position:absolute;border:2px solid var(--vscode-focusBorder);background:color-mix(in srgb,var(--vscode-focusBorder) 20%,transparent);pointer-events:none;transition:all 120ms ease-out}
</style></head><body>
<div id="bar"><span id="state" role="status">…</span><span id="url"></span></div>
<div id="empty"></div>
<div id="stage"><img id="live-frame" alt="Live view of the browser page" hidden><div id="highlight" class="highlight" hidden></div></div>
<script nonce="${nonce}" src="${script}"></script>
</body></html>`;
}
