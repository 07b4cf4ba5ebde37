import type { ToolDefinition } from './types';

/**
 * Every tool, declared once in its own file under src/tools/, listed here. MCP, Copilot
 * (package.json's languageModelTools is generated from this list) and the chat agent all read it.
 */
export const allTools: ToolDefinition[] = [];

export function findTool(name: string): ToolDefinition | undefined {
  return allTools.find((t) => t.name === name);
}
