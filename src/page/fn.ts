/**
 * Page code as the CDP side holds it. A file in src/page/ exports typed functions that run in the page;
 * `import fns from './x.ts?pagefn'` gives each as a string that evaluates to the function (esbuild.mjs), and
 * `pageFns<typeof import('./x')>(fns)` keeps each one's signature on its string, so a call is checked:
 *   callFunctionOn: { functionDeclaration: fns.isSelected }     (the element as `this` and first argument)
 *   evaluate:       { expression: pageCall(fns.hitAt, x, y) }
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

/** What a page function returns once CDP has awaited it and sent it by value. */
export type PageResult<F extends Fn> = Awaited<ReturnType<F>>;
