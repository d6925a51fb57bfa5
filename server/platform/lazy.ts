/**
 * A module loaded on first use, once: what only one optional path needs (an SDK behind a surface)
 * is imported with a computed specifier, which `deno run` does not follow, so the start neither
 * fetches nor loads it (docs/decisions/operations.md, "What the start fetches"). The caller passes
 * `() => import(specifier)`, since a specifier resolves against the module that imports it.
 */

/** `load()` once; a load that failed (a package that could not be fetched) is tried again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    loading ??= load().catch((err) => {
      loading = undefined;
      throw err;
    });
}
