import { copyFileSync, constants, linkSync, rmSync } from 'node:fs';
import { extname, join } from 'node:path';

const MAX_NAME = 200;

/** A name a server suggested, safe as one file name in our folder (no separators, no control characters). */
export function safeFileName(suggested: string): string {
  let name = suggested.replace(/[/\\\u0000-\u001f\u007f]/g, '_').trim();
  if (!name || name === '.' || name === '..') name = 'download';
  if (name.length > MAX_NAME) {
    const ext = extname(name).slice(0, 20);
    name = name.slice(0, MAX_NAME - ext.length) + ext;
  }
  return name;
}

/**
 * Moves a finished download to `dir` under `name`, or `name (1).ext`, `name (2).ext`… when taken; never
 * replaces a file (a hard link fails on an existing name, where a rename would overwrite it). Returns the path.
 */
export function placeDownload(from: string, dir: string, name: string): string {
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  for (let i = 0; ; i++) {
    const to = join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    if (to === from) return from;
    try {
      linkSync(from, to);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && i < 10_000) continue;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw e;
      // Another file system (or one without hard links): copy, still refusing to replace.
      try {
        copyFileSync(from, to, constants.COPYFILE_EXCL);
      } catch (e2) {
        if ((e2 as NodeJS.ErrnoException).code === 'EEXIST' && i < 10_000) continue;
        throw e2;
      }
    }
    rmSync(from, { force: true });
    return to;
  }
}
