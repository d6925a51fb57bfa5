/** Shared fixtures for the fetcher tests: local servers, fake resolvers, the test CA. */
import assert from "node:assert/strict";
import {
  createFetcher,
  type FetcherOptions,
  FetchRefused,
  type FetchRefusedCode,
} from "./fetcher.ts";

export const UA = "FolioBot/1.0 (+https://folio.test/bot)";
export const PUBLIC = "93.184.216.34"; // stands in for a public site; tests route it to a local server

export type Handler = (req: Request) => Response | Promise<Response>;

/** A local HTTP server on 127.0.0.1:0 that counts requests. */
export function serve(handler: Handler, tls?: { cert: string; key: string }) {
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, (req) => {
    hits++;
    return handler(req);
  });
  return {
    port: server.addr.port,
    base: `http://127.0.0.1:${server.addr.port}`,
    hits: () => hits,
    close: () => server.shutdown(),
  };
}

/** A raw TCP listener on 127.0.0.1:0 that counts connections; `onConn` decides what to send. */
export function rawServer(onConn: (conn: Deno.Conn) => Promise<void> = async () => {}) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let hits = 0;
  const tasks: Promise<void>[] = [];
  const loop = (async () => {
    for await (const conn of listener) {
      hits++;
      tasks.push(
        onConn(conn).catch(() => {}).finally(() => {
          try {
            conn.close();
          } catch { /* closed by the handler */ }
        }),
      );
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    hits: () => hits,
    close: async () => {
      listener.close();
      await loop;
      await Promise.all(tasks);
    },
  };
}

export async function readHead(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(8192);
  let text = "";
  while (!text.includes("\r\n\r\n")) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  return text;
}

export function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve = (name: string) => {
    calls.push(name);
    const answer = table[name];
    if (!answer) return Promise.reject(new Error(`NXDOMAIN ${name}`));
    return Promise.resolve(typeof answer === "function" ? answer() : answer);
  };
  return { calls, resolve };
}

export function makeFetcher(extra: Partial<FetcherOptions> = {}) {
  return createFetcher({
    userAgent: UA,
    allowLoopback: true,
    minHostIntervalMs: 0,
    retries: 0,
    retryBaseMs: 5,
    timeoutMs: 3000,
    connectTimeoutMs: 1000,
    resolve: fakeResolver({ "pages.test": ["127.0.0.1"] }).resolve,
    ...extra,
  });
}

export async function refused(p: Promise<unknown>, code: FetchRefusedCode): Promise<FetchRefused> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof FetchRefused, `expected FetchRefused ${code}, got ${err}`);
  assert.equal(err.code, code, err.message);
  return err;
}

// Test-only CA and a leaf certificate for "pages.test" (EC P-256, valid to 2126). Not a secret.
export const TEST_CA = `-----BEGIN CERTIFICATE-----
MIIBhjCCAS2gAwIBAgIUU8VJDlFphVIcPS1liIaynDnxU7wwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNRm9saW8gVGVzdCBDQTAgFw0yNjExMjMxMDQwMzBaGA8yMTI2
MTAzMDEwNDAzMFowGDEWMBQGA1UEAwwNRm9saW8gVGVzdCBDQTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABHWpPnjmbarmriVa7BA4wwxUx0C9OrLDEz1bGddgxxuf
mAUymwV23/e+RTrtrLMK4rOZOUxE/6K0RLy6U3ysxcWjUzBRMB0GA1UdDgQWBBQ3
skFg139REBQcdQapGprSx/sEWDAfBgNVHSMEGDAWgBQ3skFg139REBQcdQapGprS
x/sEWDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIBAWU03e15ch
ViQaJxFE+O8BHyc/eORjc9Ch+Gh/avGTAiBGoMjFNlHrpIr7Zlxbfr5UDmAEYCA0
kOyJAMQWehapQA==
-----END CERTIFICATE-----`;
export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBuDCCAV+gAwIBAgIUOr3/2Flij6IGP91ns2JwQgJVDXQwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNRm9saW8gVGVzdCBDQTAgFw0yNjExMjMxMDQwMzBaGA8yMTI2
MTAzMDEwNDAzMFowFTETMBEGA1UEAwwKcGFnZXMudGVzdDBZMBMGByqGSM49AgEG
CCqGSM49AwEHA0IABAf5fqtzCoTcQKD8ANM8Ou0WxD/eVDwRlUl3gZSbCPZCIsck
tlDkp7K6MBjHY12XeZtQifqozxpZ/6G1PGlGLqOjgYcwgYQwFQYDVR0RBA4wDIIK
cGFnZXMudGVzdDAJBgNVHRMEAjAAMAsGA1UdDwQEAwIHgDATBgNVHSUEDDAKBggr
BgEFBQcDATAdBgNVHQ4EFgQUFNevGu8ivXxQ9xWPIdO/qfPj0aswHwYDVR0jBBgw
FoAUN7JBYNd/URAUHHUGqRqa0sf7BFgwCgYIKoZIzj0EAwIDRwAwRAIgfQYxF6Xf
3VMJ2t4sUI2rBktibiE92OeasBfcY1Tz9FcCID0nlbWX+bUTPI+Mcw3bC1AR95RL
0UoCoRVsyiUPWE5Q
-----END CERTIFICATE-----`;
export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgxdN9GsfwpXerQS/r
mKUh4ZQXJXuOiUNQuFJU7oBdfNuhRANCAAQH+X6rcwqE3ECg/ADTPDrtFsQ/3lQ8
EZVJd4GUmwj2QiLHJLZQ5KeyujAYx2Ndl3mbUIn6qM8aWf+htTxpRi6j
-----END PRIVATE KEY-----`;
