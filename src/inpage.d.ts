/** `import source from './page/extractor.ts?inpage'`: the file bundled (IIFE) as a string, see esbuild.mjs. */
declare module '*?inpage' {
  const source: string;
  export default source;
}
