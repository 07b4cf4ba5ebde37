import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { toPlaywrightTest } from './playwright';
import { loadTask } from './reader';

export interface ExportResult {
  dir: string;
  specFile: string;
  files: string[];
  secretEnv: string[];
}

/**
 * Writes a self-contained folder for a task: its log and screenshots as recorded, a runnable
 * Playwright spec (`task.spec.ts`) and a README saying how to run it. (A folder, not a zip: no
 * extra dependency, and the OS zips a folder in one click.)
 */
export async function exportTask(taskDir: string, outDir: string): Promise<ExportResult> {
  const task = await loadTask(taskDir);
  await fs.mkdir(outDir, { recursive: true });
  const files: string[] = [];
  for (const name of await fs.readdir(taskDir)) {
    await fs.copyFile(join(taskDir, name), join(outDir, name));
    files.push(name);
  }
  const { code, secretEnv } = toPlaywrightTest(task);
  await fs.writeFile(join(outDir, 'task.spec.ts'), code);
  const readme = [
    `# ${task.start?.goal ?? task.id}`,
    '',
    `Recorded by Browser Agent${task.start?.ts ? ` on ${task.start.ts}` : ''}; outcome: ${task.end?.outcome ?? 'unfinished'}; ${task.steps.length} steps.`,
    '',
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
