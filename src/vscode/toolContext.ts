import { tmpdir } from 'node:os';
import * as vscode from 'vscode';
import { join } from 'node:path';
import { BrowserAgentError } from '../base/errors';
import type { SessionManager } from '../session/manager';
import type { SkillLibrary } from '../skills/library';
import type { ToolContext, ToolSettings } from '../contract/types';
import { readPolicySettings } from './safetySettings';

export function readToolSettings(): ToolSettings {
  const config = vscode.workspace.getConfiguration('browserAgent');
  const snapshotMaxTokens = config.get<number>('snapshot.maxTokens');
  const foldTextAfter = config.get<number>('snapshot.foldTextAfter');
  return {
    allowedSchemes: readPolicySettings().allowedSchemes,
    downloadsDir: join(tmpdir(), 'browser-agent-downloads'),
    maxWaitMs: 30_000,
    ...(snapshotMaxTokens !== undefined && snapshotMaxTokens >= 200 ? { snapshotMaxTokens: Math.min(Math.round(snapshotMaxTokens), 200_000) } : {}),
    ...(typeof foldTextAfter === 'number' && foldTextAfter >= 0 ? { snapshotFoldTextAfter: Math.round(foldTextAfter) } : {}),
  };
}

let skills: SkillLibrary | undefined;

/** The extension's one skill library (src/vscode/skills/register.ts); like settings, every front door reads it. */
export function setSkillLibrary(library: SkillLibrary | undefined): void {
  skills = library;
}

/** The context tools run with from VS Code: launches or reattaches the browser on demand. */
export function createToolContext(sessions: SessionManager, signal?: AbortSignal): ToolContext {
  return {
    sessions,
    browser: () => sessions.ensure(),
    tab: async () => (await sessions.ensure()).activeTab(),
    signal,
    settings: readToolSettings(),
    skills,
  };
}

/**
 * For previews (prepareInvocation): sees the browser that is already running and never starts
 * one, so preparing a call stays free of side effects.
 */
export function createPeekContext(sessions: SessionManager): ToolContext {
  const current = () => {
    const s = sessions.current;
    if (!s) throw new BrowserAgentError('BROWSER_DISCONNECTED', 'No browser is running yet.');
    return s;
  };
  return {
    sessions,
    browser: async () => current(),
    tab: async () => current().activeTab(),
    settings: readToolSettings(),
  };
}
