/** Small pieces every console page handler uses. */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError } from "../../platform/errors.ts";
import type { ApiAnswer } from "./api.ts";

/** The body of an API read a page cannot do without; its failure becomes the page's error. */
export function must<T>(answer: ApiAnswer<T>): T {
  if (answer.ok) return answer.body;
  throw new AppError(
    answer.status as ContentfulStatusCode,
    "api_refused",
    answer.problem ?? `The request failed (${answer.status})`,
  );
}

/** A path segment taken from the URL, encoded for the API path it goes into. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** The status a page answers when the API refused its form: the API's own 4xx, else 400. */
export function refusalStatus(status: number): ContentfulStatusCode {
  return status >= 400 && status < 500 ? status as ContentfulStatusCode : 400;
}

/** The status of a page that may carry a refused form: 200, or the refusal's (`refusalStatus`). */
export function pageStatus(status: number): ContentfulStatusCode {
  return status === 200 ? 200 : refusalStatus(status);
}

/** One page of `items` (pages count from 1; a bad or past-the-end `raw` page shows the nearest). */
export function pageOf<T>(
  items: T[],
  raw: string | undefined,
  size: number,
): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const asked = /^\d{1,6}$/.test(raw ?? "") ? Number(raw) : 1;
  const page = Math.min(Math.max(1, asked), pages);
  return { items: items.slice((page - 1) * size, page * size), page, pages };
}
