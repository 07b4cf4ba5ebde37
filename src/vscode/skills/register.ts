import * as vscode from 'vscode';
import { listTasks, loadTask } from '../../audit/reader';
import { errorMessage } from '../../base/errors';
import { setSkillLibrary } from '../toolContext';
import { draftSkill } from '../../audit/skillDraft';
import { shortTime } from '../../audit/present';
import { defaultSkillFolders, globalSkillsDir, workspaceSkillsDir } from '../../skills/folders';
import { SkillLibrary, type SkillFolder } from '../../skills/library';
import { saveSkillDraft } from '../../skills/save';

export interface SkillsApi {
  /** Undefined while skills are turned off (browserAgent.skills.enabled). */
  readonly library: SkillLibrary | undefined;
  /** Drafts a SKILL.md from a recorded task folder, saves it and opens it; returns the file. */
  saveFromTask(taskDir: string): Promise<string | undefined>;
}

function folders(context: vscode.ExtensionContext): SkillFolder[] {
  const c = vscode.workspace.getConfiguration('browserAgent.skills');
  return defaultSkillFolders({
    workspaces: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    packageRoot: context.extensionUri.fsPath,
    shipped: c.get<boolean>('examples', true),
    extra: c.get<string[]>('folders', []),
  });
}

/** Where "Save as Skill…" writes: the first workspace folder's skills, else the user's. */
function saveDir(): string {
  const ws = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.scheme === 'file');
  return ws ? workspaceSkillsDir(ws.uri.fsPath) : globalSkillsDir();
}

/** The skill library (watched folders), its settings, "Save as Skill…" and "Show Skills…". */
export function registerSkills(context: vscode.ExtensionContext, auditRoot: string, log?: vscode.LogOutputChannel): SkillsApi {
  let library: SkillLibrary | undefined;
  const apply = () => {
    const enabled = vscode.workspace.getConfiguration('browserAgent.skills').get<boolean>('enabled', true);
    if (!enabled) {
      library?.dispose();
      library = undefined;
    } else if (!library) {
      library = new SkillLibrary(folders(context), { watch: true });
      library.on('changed', (e: { skills: number; problems: { path: string; message: string }[] }) => {
        log?.info(`Skills: ${e.skills} loaded${e.problems.length ? `, ${e.problems.length} skipped` : ''}.`);
        for (const p of e.problems) log?.warn(`Skill ${p.path} skipped: ${p.message}`);
      });
      void library.reload();
    } else {
      void library.setFolders(folders(context));
    }
    setSkillLibrary(library);
  };
  apply();

  const saveFromTask = async (taskDir: string): Promise<string | undefined> => {
    const task = await loadTask(taskDir);
    if (task.end?.outcome !== 'success') {
      void vscode.window.showWarningMessage(`Browser Agent: "Save as Skill" needs a task that succeeded; this one ${task.end ? `ended as ${task.end.outcome}` : 'has not ended'}.`);
      return undefined;
    }
    const file = await saveSkillDraft(saveDir(), draftSkill(task));
    await library?.reload();
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    void vscode.window.showInformationMessage('Browser Agent: skill drafted from the task. Review the steps; it is used from the next run on.');
    return file;
  };

  context.subscriptions.push(
    { dispose: () => (library?.dispose(), setSkillLibrary(undefined)) },
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('browserAgent.skills') && apply()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => apply()),
    vscode.commands.registerCommand('browserAgent.skills.saveFromTask', async (item?: { task?: { dir?: string } }) => {
      try {
        let dir = item?.task?.dir;
        if (!dir) {
          // Only runs that worked and were a task of their own: a replay repeats a skill's steps, it teaches none.
          const done = (await listTasks(auditRoot)).filter((t) => t.outcome === 'success' && (t.status ?? 'success') === 'success' && t.source !== 'replay');
          if (!done.length) return void vscode.window.showInformationMessage('Browser Agent: no successful recorded task to save as a skill yet.');
          const items = done.map((t) => ({ label: t.goal, description: `${t.steps} step${t.steps === 1 ? '' : 's'}`, detail: shortTime(t.startedAt), dir: t.dir }));
          dir = (await vscode.window.showQuickPick(items, { title: 'Save as Skill: pick a task that succeeded', matchOnDetail: true }))?.dir;
        }
        return dir ? await saveFromTask(dir) : undefined;
      } catch (e) {
        void vscode.window.showErrorMessage(`Browser Agent: could not save the skill: ${errorMessage(e)}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('browserAgent.skills.show', async () => {
      if (!library) return void vscode.window.showInformationMessage('Browser Agent: skills are turned off (browserAgent.skills.enabled).');
      await library.search({ query: '' });
      const items = [
        ...library.skills.map((s) => ({ label: s.name, description: `${s.source} · ${s.sites.join(', ') || 'any site'}`, detail: s.description, path: s.path })),
        ...library.problems.map((p) => ({ label: `$(warning) ${p.path.split(/[\\/]/).slice(-2).join('/')}`, description: 'skipped', detail: p.message, path: p.path })),
      ];
      if (!items.length) return void vscode.window.showInformationMessage(`Browser Agent: no skills yet. Write SKILL.md files in ${saveDir()} or use "Save as Skill…" on a task.`);
      const pick = await vscode.window.showQuickPick(items, { title: `Skills (${library.skills.length})`, matchOnDescription: true, matchOnDetail: true });
      if (pick) await vscode.window.showTextDocument(vscode.Uri.file(pick.path));
    }),
  );
  return {
    get library() {
      return library;
    },
    saveFromTask,
  };
}
