/**
 * After a tab's renderer died, Chrome still answers the calls its browser process handles (Page.navigate,
 * Page.reload, Page.getNavigationHistory, Page.stopLoading, Target.*), but never the ones the renderer must
 * answer: they wait out their whole timeout (30 s each) until a navigation loads a new renderer. These
 * domains and methods are the renderer's; on a crashed page they fail at once.
 */
const RENDERER_DOMAINS = new Set(['Runtime', 'DOM', 'DOMSnapshot', 'DOMDebugger', 'Accessibility', 'CSS', 'Input', 'Debugger', 'Overlay', 'LayerTree', 'Animation', 'Log', 'Profiler', 'HeapProfiler', 'Performance', 'Emulation']);
const RENDERER_PAGE_METHODS = new Set(['Page.getFrameTree', 'Page.getLayoutMetrics', 'Page.captureScreenshot', 'Page.addScriptToEvaluateOnNewDocument', 'Page.createIsolatedWorld', 'Page.getResourceTree', 'Page.printToPDF']);

export function needsRenderer(method: string): boolean {
  const dot = method.indexOf('.');
  return RENDERER_DOMAINS.has(method.slice(0, dot)) || RENDERER_PAGE_METHODS.has(method);
}
