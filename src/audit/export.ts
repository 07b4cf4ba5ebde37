import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { toPlaywrightTest } from './playwright';
import { loadThread, turnFolder } from './thread';

export interface ExportResult {
  dir: string;
  specFile: string;
  files: string[];
  secretEnv: string[];
}

/**
 * Writes a self-contained folder for a task: its log and screenshots as recorded, a runnable
 * Playwright spec (`task.spec.ts`) and a README saying how to run it. (A folder, not a zip: no
 * extra dependency, and the OS zips a folder in one click.) A chat thread (several task folders,
 * oldest first) exports whole: one spec of all its turns' steps, each turn's files in `turn-N/`.
 */
export async function exportTask(taskDirs: string | readonly string[], outDir: string): Promise<ExportResult> {
  const dirs = typeof taskDirs === 'string' ? [taskDirs] : taskDirs;
  const task = await loadThread(dirs);
  await fs.mkdir(outDir, { recursive: true });
  const files: string[] = [];
  for (const [i, taskDir] of dirs.entries()) {
    const folder = turnFolder(i + 1, dirs.length);
    if (folder) await fs.mkdir(join(outDir, folder), { recursive: true });
    for (const name of await fs.readdir(taskDir)) {
      await fs.copyFile(join(taskDir, name), join(outDir, folder, name));
      files.push(folder ? `${folder}/${name}` : name);
    }
  }
  const { code, secretEnv } = toPlaywrightTest(task);
  const turns = task.turns.length > 1
    ? ['Its turns, in order (each folder `turn-N/` holds that turn\'s log and screenshots):', ...task.turns.map((t, i) => `${i + 1}. ${t.start?.goal ?? t.id} (${t.steps.length} steps)`), '']
    : [];
  await fs.writeFile(join(outDir, 'task.spec.ts'), code);
  const readme = [
    `# ${task.start?.goal ?? task.id}`,
    '',
    `Recorded by Browser Agent${task.start?.ts ? ` on ${task.start.ts}` : ''}; outcome: ${task.end?.outcome ?? 'unfinished'}; ${task.steps.length} steps.`,
    '',
    ...turns,
    '- `log.jsonl` — the audit log, one JSON event per line.',
    '- `step-NNNN-before.jpg` / `-after.jpg` — screenshots around steps rated notify or above.',
    '- `task.spec.ts` — the actions as a Playwright test:',
    '',
    '      npm i -D @playwright/test',
    `      ${secretEnv.map((e) => `${e}=… `).join('')}CHROME_PATH=/path/to/chrome npx playwright test task.spec.ts`,
    '',
    ...(task.warnings.length ? ['Notes from reading the log:', ...task.warnings.map((w) => `- ${w}`), ''] : []),
  ].join('\n');
  await fs.writeFile(join(outDir, 'README.md'), readme);
  files.push('task.spec.ts', 'README.md');
  return { dir: outDir, specFile: join(outDir, 'task.spec.ts'), files, secretEnv };
}
