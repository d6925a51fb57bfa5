/** A second Folio process on a test's data directory: two processes sharing one store. */
import type { Requester } from "./billing_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A second Folio process on `dataDir`, reached through `request` like a test Folio. */
export async function secondProcess(
  dataDir: string,
): Promise<Requester & AsyncDisposable & { port: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN],
    env: {
      NO_COLOR: "1",
      FOLIO_HOST: "127.0.0.1",
      PORT: "0",
      FOLIO_DATA_DIR: dataDir,
      FOLIO_SEED: "0",
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  let port: string | undefined;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the second process stopped: ${banner}`);
    banner += value;
    port = /serving on http:\/\/[^:]+:(\d+)/.exec(banner)?.[1];
  }
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(port) },
  });
  return {
    port,
    request: (path, init = {}) => {
      const { host, ...rest } = init;
      return fetch(`http://${host ?? "localhost"}:${port}${path}`, { ...rest, client });
    },
    async [Symbol.asyncDispose]() {
      client.close();
      child.kill("SIGTERM");
      await reader.cancel().catch(() => {});
      await child.status;
    },
  };
}
