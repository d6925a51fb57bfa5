/**
 * The kill -9 harness the money crash tests share (disputes, payments, payouts): a fixture run as
 * its own process, paced one step at a time over stdin, killed with SIGKILL mid-run; and the
 * lines a process that ran to the end wrote.
 */
import assert from "node:assert/strict";

/** `fixture` under `deno run -A` with `args`; paced, it waits for "go" before each step. */
export function spawnFixture(fixture: string, args: string[], paced = false): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      fixture,
      ...(paced ? ["--paced"] : []),
      ...args,
    ],
    stdin: paced ? "piped" : "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

/**
 * Lets a paced child take steps until it has written `enough` lines starting with `step`, lets it
 * start one more and kills it with SIGKILL at once (within or after that step's transaction:
 * either is a crash). Answers every line it wrote.
 */
export async function killAfter(
  child: Deno.ChildProcess,
  step: string,
  enough: number,
): Promise<string[]> {
  const said: string[] = [];
  const go = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  await go.write(new TextEncoder().encode("go\n"));
  while (said.filter((l) => l.startsWith(step)).length < enough) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const l of lines) {
      said.push(l);
      if (l.startsWith(step)) await go.write(new TextEncoder().encode("go\n"));
    }
  }
  child.kill("SIGKILL");
  go.releaseLock();
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  assert.equal((await child.status).signal, "SIGKILL", "killed mid-run, not finished");
  return said;
}

/** What the lines starting with `step` name ("decided d_1" → "d_1"). */
export function stepsOf(lines: string[], step: string): string[] {
  return lines.filter((l) => l.startsWith(step)).map((l) => l.slice(step.length));
}

/** The lines a child that ran to the end wrote; it must exit 0. */
export async function output(child: Deno.ChildProcess): Promise<string[]> {
  const { code, stdout } = await child.output();
  assert.equal(code, 0);
  return new TextDecoder().decode(stdout).trim().split("\n").filter(Boolean);
}
