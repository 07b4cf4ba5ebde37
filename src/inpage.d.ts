/** `import source from './page/extractor.ts?inpage'`: the file bundled (IIFE) as a string, see esbuild.mjs. */
declare module '*?inpage' {
  const source: string;
  export default source;
}

/**
 * `import fns from '../page/actions/hit.ts?pagefn'`: each exported function of the file as a string that
 * evaluates to it (see esbuild.mjs); type it with `PageFns<typeof import('…')>` from src/page/fn.ts.
 */
declare module '*?pagefn' {
  const fns: Readonly<Record<string, string>>;
  export default fns;
}
