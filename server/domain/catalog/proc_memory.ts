/**
 * The resident memory of a child process, for pdf_text.ts's memory ceiling. Linux has it in
 * /proc/<pid>/status (proc(5)), but Deno opens /proc only with --allow-all, which neither
 * `deno task start` nor the compiled binary has; both have --allow-ffi (server/platform/memory.ts trims
 * glibc through it), so the file is read through libc's fopen/fread/fclose instead.
 */

const SYMBOLS = {
  fopen: { parameters: ["buffer", "buffer"], result: "pointer" },
  fread: { parameters: ["buffer", "usize", "usize", "pointer"], result: "usize" },
  fclose: { parameters: ["pointer"], result: "i32" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>;

/** Resolved once per process; null where there is no glibc or no FFI permission. */
let libc: Libc | null | undefined;

function openLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (Deno.build.os !== "linux") return libc;
  try {
    libc = Deno.dlopen("libc.so.6", SYMBOLS);
  } catch {
    // not glibc (musl), or no FFI permission
  }
  return libc;
}

/** /proc/<pid>/status through libc, or null when it cannot be opened (gone, or no libc). */
function statusThroughLibc(pid: number): string | null {
  const c = openLibc();
  if (!c) return null;
  const encode = (text: string) => new TextEncoder().encode(`${text}\0`);
  const file = c.symbols.fopen(encode(`/proc/${pid}/status`), encode("r"));
  if (file === null) return null;
  try {
    // The file is about 1.5 KB; one read returns all of it.
    const buffer = new Uint8Array(16 * 1024);
    const size = Number(c.symbols.fread(buffer, 1n, BigInt(buffer.length), file));
    return new TextDecoder().decode(buffer.subarray(0, size));
  } finally {
    c.symbols.fclose(file);
  }
}

/**
 * A process's resident memory in bytes: 0 once it has exited, null where it cannot be known
 * (not Linux, or neither /proc nor libc can be reached).
 */
export function residentBytes(pid: number): number | null {
  let status: string | null;
  try {
    status = Deno.readTextFileSync(`/proc/${pid}/status`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return 0;
    status = statusThroughLibc(pid);
    if (status === null) return openLibc() ? 0 : null;
  }
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}
