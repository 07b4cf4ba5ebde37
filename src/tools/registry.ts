import { browserClick } from './click';
import { browserClose } from './close';
import { browserConsoleMessages } from './consoleMessages';
import { browserDrag } from './drag';
import { browserElementDetails } from './elementDetails';
import { browserEvaluate } from './evaluate';
import { browserExtract } from './extract';
import { browserFillForm } from './fillForm';
import { browserFind } from './find';
import { browserHandleDialog } from './handleDialog';
import { browserHover } from './hover';
import { browserNavigate } from './navigate';
import { browserNavigateBack } from './navigateBack';
import { browserNavigateForward } from './navigateForward';
import { browserNetworkRequests } from './networkRequests';
import { browserPerformance } from './performance';
import { browserPressKey } from './pressKey';
import { browserReload } from './reload';
import { browserRunScript } from './runScript';
import { browserResize } from './resize';
import { browserScreenshot } from './screenshot';
import { browserScroll } from './scroll';
import { browserSelectOption } from './selectOption';
import { browserSkillsSearch } from './skillsSearch';
import { browserSnapshot } from './snapshot';
import { browserTabs } from './tabs';
import { browserType } from './type';
import type { ToolDefinition } from '../contract/types';
import { browserUploadFile } from './uploadFile';
import { browserWait } from './wait';

/**
 * Every tool, declared once in its own file under src/tools/, listed here. MCP, Copilot
 * (package.json's languageModelTools is generated from this list) and the chat agent all read it.
 */
export const allTools: ToolDefinition[] = [
  browserNavigate,
  browserNavigateBack,
  browserNavigateForward,
  browserReload,
  browserSnapshot,
  browserFind,
  browserElementDetails,
  browserScreenshot,
  browserClick,
  browserType,
  browserFillForm,
  browserSelectOption,
  browserHover,
  browserDrag,
  browserPressKey,
  browserScroll,
  browserUploadFile,
  browserHandleDialog,
  browserWait,
  browserTabs,
  browserResize,
  browserEvaluate,
  browserExtract,
  browserConsoleMessages,
  browserNetworkRequests,
  browserPerformance,
  browserSkillsSearch,
  browserRunScript,
  browserClose,
] as unknown as ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return allTools.find((t) => t.name === name);
}
