/**
 * Both portals are clients of their API (the console of the management API, the buyer portal of
 * the marketplace API): every page reads and every form writes through the same routes a script
 * would call, in process (no network hop), with the visitor's own session cookie and CSRF token.
 * Authorization, validation and scoping therefore live only in the API, and no page can do what
 * the API would refuse (issue: "every page's action is an API operation").
 */
import type { Context } from "hono";

/** The application's own fetch, given to the console when the app is assembled. */
export type ApiFetch = (req: Request, env: unknown) => Response | Promise<Response>;

/** What an API call answered: the status, the parsed body, and the error message if any. */
export interface ApiAnswer<T> {
  status: number;
  ok: boolean;
  body: T;
  /** The API's error message (`{error: {message}}`), for showing beside the form. */
  problem: string | null;
  headers: Headers;
  /** The body as it came (for answers that are not JSON, e.g. an invoice page). */
  text: string;
}

/** One API call: JSON in and out, or a raw body (uploads) passed through as it came. */
export interface ApiCall {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  json?: unknown;
  body?: BodyInit | null;
  contentType?: string;
  /** The CSRF token the visitor's form carried; the API checks it against the session. */
  csrf?: string;
}

/** Calls the API at `path` (e.g. `/api/publisher/settings`) as the visitor of `c`. */
export async function callApi<T = Record<string, unknown>>(
  c: Context,
  api: ApiFetch,
  path: string,
  call: ApiCall = {},
): Promise<ApiAnswer<T>> {
  const headers = new Headers({ accept: "application/json" });
  const cookie = c.req.header("cookie");
  if (cookie) headers.set("cookie", cookie);
  const ua = c.req.header("user-agent");
  if (ua) headers.set("user-agent", ua);
  if (call.csrf !== undefined) headers.set("x-csrf-token", call.csrf);
  let body: BodyInit | null | undefined = call.body;
  if (call.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(call.json);
  } else if (call.contentType) {
    headers.set("content-type", call.contentType);
  }
  const url = new URL(path, c.req.url);
  const res = await api(
    new Request(url, { method: call.method ?? "GET", headers, body }),
    c.env,
  );
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const problem = res.ok ? null : errorMessage(parsed) ?? `The request failed (${res.status})`;
  return { status: res.status, ok: res.ok, body: parsed as T, problem, headers: res.headers, text };
}

function errorMessage(body: unknown): string | null {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message : null;
}
