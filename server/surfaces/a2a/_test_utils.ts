/**
 * Test helpers for the A2A surface: raw JSON-RPC calls, message builders for both versions, and
 * the official SDK client wired to a test server's loopback port.
 */
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import type { TestFolio } from "../../../tests/helpers.ts";

/** fetch() that reaches `*.localhost` publisher hosts on this test server's loopback port. */
export function loopbackFetch(
  folio: TestFolio,
  options: { auth?: string } = {},
): typeof fetch & Disposable {
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(new URL(folio.url).port) },
  });
  const f = (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (options.auth) headers.set("authorization", options.auth);
    return fetch(input, { ...init, headers, client });
  };
  return Object.assign(f, { [Symbol.dispose]: () => client.close() });
}

/** The SDK's client factory over `fetchImpl` (JSON-RPC transport, default card resolver). */
export function sdkClientFactory(fetchImpl: typeof fetch): ClientFactory {
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }));
}

/** The origin of a publisher host on the test server's port. */
export function origin(folio: TestFolio, host = "demo.localhost"): string {
  return `http://${host}:${new URL(folio.url).port}`;
}

/** An SDK (v1.0) client for the demo publisher, discovered from its card. */
export function sdkClient(fetchImpl: typeof fetch, folio: TestFolio): Promise<Client> {
  return sdkClientFactory(fetchImpl).createFromUrl(origin(folio));
}

/** Protocol versions by their method names. */
export type Version = "1.0" | "0.3";

/** Method names per version. */
export const METHODS = {
  "1.0": { send: "SendMessage", get: "GetTask", cancel: "CancelTask" },
  "0.3": { send: "message/send", get: "tasks/get", cancel: "tasks/cancel" },
} as const;

/** A decoded JSON-RPC reply. */
export interface Reply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** POSTs a raw body to the demo publisher's A2A endpoint (custom domain, /a2a by default). */
export async function post(
  folio: TestFolio,
  body: string,
  options: { auth?: string; host?: string; path?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...options.headers,
  };
  if (options.auth) headers.authorization = options.auth;
  const res = await folio.request(options.path ?? "/a2a", {
    method: "POST",
    host: options.path ? undefined : options.host ?? "demo.localhost",
    headers,
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** One JSON-RPC call. */
export function rpc(
  folio: TestFolio,
  method: string,
  params: unknown,
  options: { auth?: string; host?: string; path?: string; id?: string | number } = {},
): Promise<Reply> {
  return post(
    folio,
    JSON.stringify({ jsonrpc: "2.0", id: options.id ?? 1, method, params }),
    options,
  );
}

/** A user message in the wire form of `version` with text and/or data parts. */
export function message(
  version: Version,
  content: { text?: string; data?: Record<string, unknown> },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  if (version === "1.0") {
    if (content.text !== undefined) parts.push({ text: content.text });
    if (content.data) parts.push({ data: content.data });
    return { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, ...extra };
  }
  if (content.text !== undefined) parts.push({ kind: "text", text: content.text });
  if (content.data) parts.push({ kind: "data", data: content.data });
  return { kind: "message", messageId: crypto.randomUUID(), role: "user", parts, ...extra };
}

/** The state of a task result in either wire form, as its v0.3 name. */
// deno-lint-ignore no-explicit-any
export function stateOf(result: any): string {
  const task = result?.task ?? result;
  const s = String(task?.status?.state ?? "");
  return s.startsWith("TASK_STATE_") ? s.slice(11).toLowerCase().replace("_", "-") : s;
}

/** The task object of a send result (v1.0 wraps it in `task`). */
// deno-lint-ignore no-explicit-any
export function taskOf(result: any): any {
  return result?.task ?? result;
}

/** The data parts' values of the task's status message. */
// deno-lint-ignore no-explicit-any
export function statusData(result: any): Record<string, unknown> {
  const parts = taskOf(result)?.status?.message?.parts ?? [];
  // deno-lint-ignore no-explicit-any
  return parts.find((p: any) => p.data)?.data ?? {};
}
