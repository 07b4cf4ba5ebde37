import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * The release build without asyncify (async host calls are bridged with promises, src/sandbox/run.ts). Its
 * Emscripten loader is taken in its CommonJS form: the variant's own dynamic import would bundle the ES module
 * form, which needs `import.meta.url` and fails inside our CommonJS bundles.
 */
const variant: QuickJSSyncVariant = {
  type: 'sync',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build on purpose (see above)
  importFFI: async () => (require('@jitl/quickjs-wasmfile-release-sync/ffi') as typeof import('@jitl/quickjs-wasmfile-release-sync/ffi')).QuickJSFFI,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build on purpose (see above)
  importModuleLoader: async () => require('@jitl/quickjs-wasmfile-release-sync/emscripten-module'),
};

/** The file esbuild.mjs copies next to the bundles (dist/quickjs.wasm): the bundles cannot find the package's own. */
export const WASM_FILE = 'quickjs.wasm';

function wasmPath(): string {
  // Bundled (dist/extension.js, dist/cli.js): the copy beside the bundle. Tests and tools run with the package
  // external, where the package's own file is found through its `./wasm` export.
  const beside = join(__dirname, WASM_FILE);
  if (existsSync(beside)) return beside;
  // A name in a variable: esbuild leaves the lookup to run time (the bundles never reach it).
  const pkg = '@jitl/quickjs-wasmfile-release-sync';
  return require.resolve(`${pkg}/wasm`);
}

let compiled: Promise<WebAssembly.Module> | undefined;

/** The QuickJS engine compiled once per process (~0.5 MB of WebAssembly). */
function compiledModule(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(readFileSync(wasmPath())).catch((e) => {
    compiled = undefined;
    throw e;
  });
  return compiled;
}

/**
 * A fresh QuickJS instance (its own WebAssembly memory) for each script: nothing a script leaves behind
 * reaches the next one, and an engine that aborted is simply dropped.
 */
export async function freshQuickJS(heapBytes = DEFAULT_HEAP_BYTES): Promise<QuickJSWASMModule> {
  const wasmModule = await compiledModule();
  // The heap is capped here, in WebAssembly memory the instance cannot grow past: QuickJS's own memory limit
  // counts allocations by malloc_usable_size, which this build lacks, so it only catches single huge ones.
  const wasmMemory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum: BASE_PAGES + Math.ceil(heapBytes / PAGE) });
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule, wasmMemory }));
}

const PAGE = 65_536;
/** What the build starts with (its INITIAL_MEMORY, 16 MB): the engine's own data and stack live there. */
const BASE_PAGES = 256;
const DEFAULT_HEAP_BYTES = 64 << 20;
