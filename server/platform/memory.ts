/**
 * Giving memory back to the system after a burst of work (docs/decisions/operations.md).
 * After four books were imported, trained and embedded, the JavaScript heap was back to its idle
 * size but the process kept 140 MB more: memory V8 had not collected yet (its memory reducer
 * runs about 30 s later) and memory glibc's allocator keeps once freed. `malloc_trim(0)` gave
 * all of it back.
 */

/**
 * V8's heap policy for the serving process (`deno task start`, the compiled binary, the benches'
 * servers): young-generation semi-spaces of at most 8 MB, and the old generation let grow 20%
 * past what a full collection left before the next one. V8's defaults on this 24 GB machine let
 * the young generation double to 60 MB and the old one grow up to 4× under a burst of background
 * work, so a site sync of 50,000 URLs lifted the server 1.35× its idle memory and a gzip bomb
 * 1.23× (issue 39's goal is 1.2×); with these 1.11× and 1.08×, the charged read and REST search at
 * 100k within their run-to-run spread (docs/PERFORMANCE.md, "heap policy").
 */
export const SERVE_V8_FLAGS = "--max-semi-space-size=8,--heap-growing-percent=20";

/** The one way this process can release memory, or null where it has none. */
export type MemoryRelease = "signal" | "malloc_trim" | null;

/**
 * A full collection stops the serving thread for all of it: 71 ms on a 100k-article server
 * (416 → 313 MB). Above this much live heap only glibc is trimmed, and V8 keeps collecting in
 * its own incremental way.
 */
export const FULL_COLLECTION_MAX_HEAP = 128 * 1024 * 1024;

/** What a release did: a full collection and trims, trims only, or nothing (no way here). */
export type Released = "collected" | "trimmed" | "none";

/**
 * Picks how to release memory. With `DENO_USR2_MEMORY_TRIM=1` at start (`deno task start` sets
 * it; `config.usr2MemoryTrim` says so, server/platform/config.ts), Deno answers SIGUSR2 with a full V8 collection and `malloc_trim(0)`; V8 frees array
 * buffers after its collection, on another thread, so glibc is trimmed again 2 s later (four
 * books: 244 → 170 MB 35 s after). Without it SIGUSR2 would end the process, and above
 * FULL_COLLECTION_MAX_HEAP the pause would be too long: glibc is only trimmed, through FFI, now
 * and after V8's memory reducer has collected (about 30 s idle). Linux with glibc only.
 */
export function memoryReleaser(options: {
  /** Deno answers SIGUSR2 with a collection and a trim (`config.usr2MemoryTrim`). */
  usr2MemoryTrim?: boolean;
  heapUsed?: () => number;
  /** Deno installs its SIGUSR2 handler as it starts: a signal before that ends the process. */
  signalAfterMs?: number;
} = {}): { kind: MemoryRelease; release: () => Released } {
  const heapUsed = options.heapUsed ?? (() => Deno.memoryUsage().heapUsed);
  const signalAfterMs = options.signalAfterMs ?? 5_000;
  const trim = mallocTrim();
  const later = (ms: number) => trim && Deno.unrefTimer(setTimeout(trim, ms));
  const trimOnly = (): Released => {
    if (!trim) return "none";
    trim();
    later(35_000);
    return "trimmed";
  };
  if (Deno.build.os === "linux" && options.usr2MemoryTrim === true) {
    return {
      kind: "signal",
      release: () => {
        // performance.now() counts from the process's start.
        if (performance.now() < signalAfterMs || heapUsed() > FULL_COLLECTION_MAX_HEAP) {
          return trimOnly();
        }
        Deno.kill(Deno.pid, "SIGUSR2");
        later(2_000);
        return "collected";
      },
    };
  }
  return { kind: trim ? "malloc_trim" : null, release: trimOnly };
}

/** Resolved once per process: every app instance (and test) shares the one library handle. */
let libcTrim: (() => void) | null | undefined;

/** glibc's `malloc_trim(0)` through FFI, or null (not Linux, not glibc, or no FFI permission). */
export function mallocTrim(): (() => void) | null {
  if (libcTrim !== undefined) return libcTrim;
  libcTrim = null;
  if (Deno.build.os !== "linux") return libcTrim;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    libcTrim = () => void libc.symbols.malloc_trim(0n);
  } catch {
    // not glibc (musl), or no FFI permission
  }
  return libcTrim;
}
