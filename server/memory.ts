/**
 * Giving memory back to the system after a burst of work (ARCHITECTURE.md "Throughput", step 40).
 * After four books were imported, trained and embedded, the JavaScript heap was back to its idle
 * size but the process kept 140 MB more: memory V8 had not collected yet (its memory reducer
 * runs about 30 s later) and memory glibc's allocator keeps once freed. `malloc_trim(0)` gave
 * all of it back.
 */

/** The one way this process can release memory, or null where it has none. */
export type MemoryRelease = "signal" | "malloc_trim" | null;

/**
 * Picks how to release memory. With `DENO_USR2_MEMORY_TRIM=1` at start (`deno task start` sets
 * it), Deno answers SIGUSR2 with a full V8 collection and `malloc_trim(0)`; V8 frees array
 * buffers after its collection, on another thread, so glibc is trimmed again 2 s later (four
 * books: 244 → 170 MB 35 s after). Without it SIGUSR2 would end the process: glibc is only
 * trimmed, through FFI, now and after V8's memory reducer has collected (about 30 s idle). Linux
 * with glibc only; elsewhere nothing.
 */
export function memoryReleaser(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): { kind: MemoryRelease; release: () => void } {
  const trim = mallocTrim();
  const later = (ms: number) => trim && Deno.unrefTimer(setTimeout(trim, ms));
  if (Deno.build.os === "linux" && env.DENO_USR2_MEMORY_TRIM === "1") {
    return {
      kind: "signal",
      release: () => {
        Deno.kill(Deno.pid, "SIGUSR2");
        later(2_000);
      },
    };
  }
  if (!trim) return { kind: null, release: () => {} };
  return {
    kind: "malloc_trim",
    release: () => {
      trim();
      later(35_000);
    },
  };
}

/** glibc's `malloc_trim(0)` through FFI, or null (not Linux, not glibc, or no FFI permission). */
export function mallocTrim(): (() => void) | null {
  if (Deno.build.os !== "linux") return null;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return () => void libc.symbols.malloc_trim(0n);
  } catch {
    return null; // not glibc (musl), or no FFI permission
  }
}
