import * as vscode from 'vscode';

export const WALKTHROUGH = 'browserAgent.start';

/** Opens the Get Started walkthrough, at a step when given (e.g. "attach" from a failed attach's button). */
export function openWalkthrough(extensionId: string, step?: string): Thenable<unknown> {
  const category = `${extensionId}#${WALKTHROUGH}`;
  // VS Code joins the two itself (`${category}#${step}`): the step is its own id only.
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', step ? { category, step } : category, false);
}

export function registerWalkthroughCommands(context: vscode.ExtensionContext): vscode.Disposable[] {
  const id = context.extension.id;
  return [
    vscode.commands.registerCommand('browserAgent.openWalkthrough', () => openWalkthrough(id)),
    vscode.commands.registerCommand('browserAgent.howToAttach', () => openWalkthrough(id, 'attach')),
  ];
}
