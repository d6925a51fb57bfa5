/**
 * Article links the publisher can follow from the console. An article's URL names its canonical
 * host (`https://demo.localhost/articles/…`); when that host is the publisher's custom domain, Folio
 * serves it on the platform's scheme and port (`publisherUrls().host`, e.g.
 * `http://demo.localhost:8080`), so the link goes there instead (issue 34). Other URLs (the
 * publisher's own site) are left as they are.
 */
import type { Context } from "hono";
import { settingsResponseSchema } from "../../surfaces/manage/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import type { ConsoleEnv } from "../kit/session.ts";

/** `url` moved to `host`'s scheme and port when its host name is the custom `domain`. */
export function reachableUrl(url: string, domain: string | null, host: string | null): string {
  if (!domain || !host || !URL.canParse(url)) return url;
  const u = new URL(url);
  if (u.hostname !== domain.toLowerCase()) return url;
  const served = new URL(host);
  u.protocol = served.protocol;
  u.port = served.port;
  return u.href;
}

/** The link maker of the signed-in publisher (one settings read; without it, URLs as they are). */
export async function siteLinks(
  c: Context<ConsoleEnv>,
  api: ApiFetch,
): Promise<(url: string) => string> {
  const answer = await callApi(c, api, "/api/publisher/settings", settingsResponseSchema);
  if (!answer.ok) return (url) => url;
  const { customDomain, urls } = answer.body;
  return (url) => reachableUrl(url, customDomain, urls.host);
}
