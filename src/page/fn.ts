/**
 * Page code as the CDP side holds it. A file in src/page/ exports typed functions that run in the page;
 * `import fns from './x.ts?pagefn'` gives each as a string that evaluates to the function (esbuild.mjs), and
 * `pageFns<typeof import('./x')>(fns)` keeps each one's signature on its string (a name the file does not
 * export does not compile, and pageCall checks the arguments):
 *   callFunctionOn: { functionDeclaration: fns.isSelected }     (actions/element.ts callOnElement passes the
 *                                                               element as `this` and as first argument)
 *   evaluate:       { expression: pageCall(fns.whatIsAt, x, y) }
 */

/** The source of a page function of type `F`: a string, typed by what it runs. */
export type PageFn<F> = string & { readonly __runs?: F };

/** The `?pagefn` strings of a page module `M`, one per function it exports. */
export type PageFns<M> = { readonly [K in keyof M as M[K] extends (...args: never[]) => unknown ? K : never]: PageFn<M[K]> };

export function pageFns<M>(fns: Readonly<Record<string, string>>): PageFns<M> {
  return fns as PageFns<M>;
}

type Fn = (...args: never[]) => unknown;

/** An expression calling page function `fn` with `args` (JSON values): `(fn)(1,"a")`. */
export function pageCall<F extends Fn>(fn: PageFn<F>, ...args: Parameters<F>): string {
  return `(${fn})(${args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(',')})`;
}
