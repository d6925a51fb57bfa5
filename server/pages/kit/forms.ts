/**
 * How a console form becomes an API call: read the fields, send them (with the form's CSRF token)
 * to the API route of that action, then either redirect with a notice (post/redirect/get, so a
 * reload does not repeat the action) or hand the API's problem back for the page to show beside
 * the values the visitor typed.
 */
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../../platform/errors.ts";
import type { z } from "zod";
import { usdToCents } from "../../platform/money.ts";
import { type ApiAnswer, type ApiCall, type ApiFetch, type BodyOf, callApi } from "./api.ts";

/** Form fields by name; a repeated field (checkbox lists) keeps every value. */
export type Fields = Record<string, string | string[]>;

/** Ordinary console forms are small; uploads go through their own limits in the API. */
export const formLimit = bodyLimit({
  maxSize: 64 * 1024,
  onError: () => {
    throw new AppError(413, "payload_too_large", "The form is larger than 64 KB");
  },
});

/** The submitted fields of a urlencoded or multipart form (files are not fields). */
export async function readForm(c: Context): Promise<Fields> {
  const body = await c.req.parseBody({ all: true });
  const fields: Fields = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v === "string") fields[k] = v;
    else if (Array.isArray(v)) fields[k] = v.filter((x): x is string => typeof x === "string");
  }
  return fields;
}

/** One value of a field ("" when absent; the first of repeated values). */
export function field(fields: Fields, name: string): string {
  const v = fields[name];
  return (Array.isArray(v) ? v[0] : v) ?? "";
}

/** A field as a trimmed string, or undefined when left empty (the API then keeps its value). */
export function optional(fields: Fields, name: string): string | undefined {
  const v = field(fields, name).trim();
  return v === "" ? undefined : v;
}

/** A numeric field: a number, undefined when empty, or the raw text so the API names the problem. */
export function numeric(fields: Fields, name: string): number | string | undefined {
  const v = field(fields, name).trim();
  if (v === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

/**
 * A dollar field as the API's US cents (fractional cents kept to 4 places; with `whole`, rounded
 * to the cent), undefined when empty, or the raw text so the API names the problem.
 */
export function cents(
  fields: Fields,
  name: string,
  whole = false,
): number | string | undefined {
  const usd = numeric(fields, name);
  return typeof usd === "number" ? usdToCents(usd, whole) : usd;
}

/** A checkbox: present means on. */
export function checked(fields: Fields, name: string): boolean {
  return field(fields, name) !== "";
}

/**
 * Calls the API for a form, with the CSRF token the form carried; an answer the page reads is
 * parsed with `schema` (`callApi`), else its body is left unread.
 */
export function send<S extends z.ZodType | null = null>(
  c: Context,
  api: ApiFetch,
  fields: Fields,
  path: string,
  call: Omit<ApiCall, "csrf">,
  schema: S = null as S,
): Promise<ApiAnswer<BodyOf<S>>> {
  return callApi(c, api, path, schema, { ...call, csrf: field(fields, "_csrf") });
}

/** 303 to a console page with the notice code of what just happened. */
export function doneRedirect(c: Context, to: string, done: string): Response {
  const url = new URL(to, c.req.url);
  url.searchParams.set("done", done);
  return c.redirect(`${url.pathname}${url.search}${url.hash}`, 303);
}

/** The notice for `?done=<code>`: only known codes are shown, so a link cannot put words here. */
export function noticeOf(c: Context, notices: Record<string, string>): string | null {
  const code = c.req.query("done");
  return code && Object.hasOwn(notices, code) ? notices[code] : null;
}
