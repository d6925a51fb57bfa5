/**
 * Email survives a crash (docs/decisions/email.md): an email queued in a committed transaction by
 * a real `deno run main.ts` process is sent after that process is killed with SIGKILL and another
 * starts on the same store, and never twice, not even after a second kill and restart.
 */
import assert from "node:assert/strict";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";
import { smtpMissing, type SmtpSink, startSmtpSink } from "./fixtures/smtp.ts";
import { until } from "./fixtures/until.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const skip = smtpMissing();

/** A Folio process on `dir`, serving on a free port; answers its base URL and the process. */
async function startProcess(dir: string, env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--lock=${new URL("../deno.lock", import.meta.url).pathname}`, "-A", MAIN],
    env: {
      NO_COLOR: "1",
      PORT: "0",
      FOLIO_HOST: "127.0.0.1",
      FOLIO_DATA_DIR: dir,
      FOLIO_SEED_HISTORY: "0",
      ...env,
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  while (!/serving on http:\/\/localhost:\d+/.test(banner)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Folio did not start:\n${banner}`);
    banner += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  const port = /serving on http:\/\/localhost:(\d+)/.exec(banner)![1];
  return { base: `http://127.0.0.1:${port}`, child };
}

async function kill9(child: Deno.ChildProcess) {
  child.kill("SIGKILL");
  await child.status;
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Asks the demo publisher for a license as a new buyer: its console user is emailed. */
async function licenseRequest(base: string, n: number) {
  const { apiKey } = await postJson(`${base}/api/marketplace/signup`, {
    name: `Crash Buyer ${n}`,
    email: `crash${n}@acme.test`,
  });
  await postJson(`${base}/api/marketplace/license-requests`, {
    publisherId: "pub_demo",
    useCase: "rag",
    message: `Request number ${n}`,
  }, { authorization: `Bearer ${apiKey}` });
}

const requestsArrived = (sink: SmtpSink) =>
  sink.messages().filter((m) => m.rcptTos.includes(DEMO_CONSOLE_EMAIL)).map((m) =>
    /Request number (\d+)/.exec(m.text ?? "")?.[1]
  );

Deno.test({
  name: "an email committed before a kill -9 is sent after the restart, and never twice",
  ignore: skip !== null,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "folio-mail-crash-" });
    await using sink = await startSmtpSink();
    try {
      // Email off: the request commits its email to the outbox and nothing sends it.
      const first = await startProcess(dir, {});
      await licenseRequest(first.base, 1);
      await kill9(first.child);

      // The next process, with email on, sends it.
      const second = await startProcess(dir, { FOLIO_SMTP_URL: sink.url });
      await until("the committed email arrived", () => requestsArrived(sink).length >= 1);
      await kill9(second.child);

      // A third process sends what is queued next; the first email, already sent, is not sent
      // again (the worker takes rows in order, so it would have come before this one).
      const third = await startProcess(dir, { FOLIO_SMTP_URL: sink.url });
      await licenseRequest(third.base, 2);
      await until("the second email arrived", () => requestsArrived(sink).length >= 2);
      await kill9(third.child);
      assert.deepEqual(requestsArrived(sink), ["1", "2"]);
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
