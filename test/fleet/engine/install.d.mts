// Types of install.mjs for the TypeScript suite that uses it.
export const BROWSERLESS_VERSION: string;
export function browserlessCacheRoot(): string;
export interface BrowserlessPaths {
  root: string;
  dir: string;
  entry: string;
  browsersPath: string;
}
export function browserlessPaths(root?: string): BrowserlessPaths;
export function ensureBrowserless(opts?: { log?: (s: string) => void }): Promise<BrowserlessPaths & { nodeBin: string }>;
