/**
 * Both portals are clients of their API (the console of the management API, the buyer portal of
 * the marketplace API): every page reads and every form writes through the same routes a script
 * would call, in process (no network hop), with the visitor's own session cookie and CSRF token.
 * Authorization, validation and scoping therefore live only in the API, and no page can do what
 * the API would refuse (issue: "every page's action is an API operation").
 */
import type { Context } from "hono";
import { z } from "zod";
import { FormExpired } from "./form_expired.ts";

/** The application's own fetch, given to the console when the app is assembled. */
export type ApiFetch = (req: Request, env: unknown) => Response | Promise<Response>;

/**
 * What an API call answered: the status, the body (parsed by the route's documented schema when
 * the call succeeded), and the error message if it did not.
 */
export type ApiAnswer<T> = ({ ok: true; body: T } | { ok: false; body: unknown }) & AnswerParts;

/** The body's type when read with `schema`: its output, or `unknown` when the page reads none. */
export type BodyOf<S extends z.ZodType | null> = S extends z.ZodType ? z.output<S> : unknown;

interface AnswerParts {
  status: number;
  /** The API's error message (`{error: {message}}`), for showing beside the form. */
  problem: string | null;
  /** The input field the API named at fault (`{error: {param}}`), or null. */
  param: string | null;
  /** The API's error code (`{error: {code}}`), for refusals a page words its own way, or null. */
  code: string | null;
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

/**
 * Calls the API at `path` (e.g. `/api/publisher/settings`) as the visitor of `c`. A successful
 * answer is parsed with `schema`, the one the OpenAPI document gives for the route (null: the page
 * reads none of the body, e.g. a 204, a CSV, or a write it only redirects after); an answer the
 * schema refuses throws, so the page fails as a logged 500 rather than showing something wrong.
 */
export async function callApi<S extends z.ZodType | null>(
  c: Context,
  api: ApiFetch,
  path: string,
  schema: S,
  call: ApiCall = {},
): Promise<ApiAnswer<BodyOf<S>>> {
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
  const parts = { status: res.status, headers: res.headers, text };
  // A form's token refused: one page for every portal form (framePortal), not the API's sentence.
  if (call.csrf !== undefined && res.status === 403 && errorCode(parsed) === "csrf_failed") {
    throw new FormExpired();
  }
  if (!res.ok) {
    const problem = errorMessage(parsed) ?? `The request failed (${res.status})`;
    return {
      ...parts,
      ok: false,
      body: parsed,
      problem,
      param: errorParam(parsed),
      code: errorCode(parsed),
    };
  }
  if (schema === null) {
    return {
      ...parts,
      ok: true,
      body: parsed as BodyOf<S>,
      problem: null,
      param: null,
      code: null,
    };
  }
  const read = schema.safeParse(parsed);
  if (!read.success) {
    const method = call.method ?? "GET";
    throw new Error(
      `${method} ${url.pathname} answered ${res.status} with a body its schema refuses:\n` +
        z.prettifyError(read.error),
    );
  }
  return {
    ...parts,
    ok: true,
    body: read.data as BodyOf<S>,
    problem: null,
    param: null,
    code: null,
  };
}

function errorMessage(body: unknown): string | null {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message : null;
}

function errorCode(body: unknown): string | null {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === "string" ? code : null;
}

function errorParam(body: unknown): string | null {
  const param = (body as { error?: { param?: unknown } } | null)?.error?.param;
  return typeof param === "string" ? param : null;
}
