import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';

/** The webview page: strict CSP (scripts only with the nonce, nothing remote), our CSS, codicons, one script. */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, uri: (base: vscode.Uri, ...p: string[]) => vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]) => webview.asWebviewUri(uri(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'media', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'chat.css')}">
<title>Browser Agent</title>
</head>
<body>
<div id="app" role="application" aria-label="Browser Agent chat"></div>
<script nonce="${nonce}" src="${asset('dist', 'media', 'chat.js')}"></script>
</body>
</html>`;
}
