import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { fingerprintOf } from './click';
import { describeHandle, describeNode } from './element';
import type { ActionOutcome, Scope } from './scopeTypes';
import { ignore } from '../base/ignore';

function checkFiles(paths: string[]): string[] {
  return paths.map((p) => {
    const full = isAbsolute(p) ? p : resolve(p);
    let ok = false;
    try {
      ok = statSync(full).isFile();
    } catch (e) {
      ignore(e, 'reported below');
    }
    if (!ok) throw new BrowserAgentError('INVALID_INPUT', `No such file: ${full}.`, 'Give absolute paths of existing files.');
    return full;
  });
}

/** Sets files on a file input (by ref) or on the file chooser the page opened. */
export async function uploadFiles(s: Scope, paths: string[], h?: ElementHandle): Promise<ActionOutcome> {
  const files = checkFiles(paths);
  const chooser = s.tabObs.fileChooser;
  if (h) {
    const { tag, attrs } = await describeNode(h);
    if (tag !== 'input' || attrs.type?.toLowerCase() !== 'file') {
      throw new BrowserAgentError('NOT_INTERACTABLE', `[${h.ref}] ${describeHandle(h)} is not a file input.`, 'Click the upload button (a file chooser opens and is reported), then call browser_upload_file without a ref.');
    }
    if (files.length > 1 && !('multiple' in attrs)) throw new BrowserAgentError('INVALID_INPUT', `${describeHandle(h)} accepts one file only.`, 'Pass a single path.');
    await h.session.send('DOM.setFileInputFiles', { files, backendNodeId: h.backendNodeId });
    if (chooser) s.tabObs.fileChooser = undefined;
    return { text: `Set ${files.length} file(s) on ${describeHandle(h)}: ${files.join(', ')}`, target: fingerprintOf(h) };
  }
  if (!chooser) throw new BrowserAgentError('TARGET_NOT_FOUND', 'No file chooser is open.', 'Click the page\'s upload button first, or give the ref of the file input.');
  if (files.length > 1 && chooser.mode === 'selectSingle') throw new BrowserAgentError('INVALID_INPUT', 'The open file chooser accepts one file only.', 'Pass a single path.');
  await chooser.session.send('DOM.setFileInputFiles', { files, backendNodeId: chooser.backendNodeId });
  s.tabObs.fileChooser = undefined;
  return { text: `Chose ${files.length} file(s) in the file chooser: ${files.join(', ')}` };
}
