import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : typeof (p as { value?: unknown }).value === 'string' ? (p as { value: string }).value : ''))
    .join('\n');
}

/**
 * The ref of the element a snapshot line names, the way a model reads it: the line that contains the
 * accessible name, and the ref token on it (`[12]`, `[f2:5]`, `[ref=e12]`).
 */
export function refFor(snapshot: string, name: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(`"${name}"`) || l.includes(name));
  assert.ok(line, `the snapshot names "${name}":\n${snapshot}`);
  const m = /\bref[=:]\s*"?([A-Za-z0-9_:.-]+)"?/.exec(line) ?? /\[([A-Za-z]{0,2}\d+[A-Za-z0-9_:]*)\]/.exec(line);
  assert.ok(m, `a ref on the line for "${name}": ${line}`);
  return m[1];
}
