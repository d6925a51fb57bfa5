/** The catalog: every publisher with content, searchable and filtered by what a buyer needs. */
import type { z } from "zod";
import type { catalogSchema } from "../../server/surfaces/marketplace/schemas.ts";
import { Pager, Scroll } from "../console/scroll.tsx";
import { count } from "../console/shell.tsx";
import { formatRate } from "../../server/platform/money.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";
import { plural, useInWords } from "../../server/platform/words.ts";

/** The use cases of the standard bundle (docs/SPEC.md "License (subscription)"). */
export const BUNDLE_USES = ["summarization", "display", "rag"] as const;

/** A use case of the standard bundle. */
export type BundleUse = typeof BUNDLE_USES[number];

/** One publisher of GET /api/marketplace/catalog. */
export type CatalogPublisher = z.output<typeof catalogSchema>["publishers"][number];

/** The standard monthly rate card of GET /api/marketplace/catalog. */
export type RateCard = z.output<typeof catalogSchema>["rateCard"];

/** The catalog's filters, as typed into the form. */
export interface CatalogFilter {
  q: string;
  right: string;
  maxPriceUsd: string;
  surface: string;
  auth: string;
}

/** What the catalog page shows. */
export interface CatalogProps {
  who: BuyerWho;
  filter: CatalogFilter;
  /** This page of the matching publishers. */
  publishers: CatalogPublisher[];
  matching: number;
  total: number;
  page: number;
  pages: number;
  problem?: string | null;
}

/** The surfaces a publisher offers: MCP always, REST on its host or by key, A2A when on. */
export function surfacesOf(p: CatalogPublisher): string[] {
  return ["MCP", "REST", ...(p.a2aEndpoint ? ["A2A"] : [])];
}

/** GET /buyer/catalog. */
export function CatalogPage(props: CatalogProps) {
  const f = props.filter;
  const link = (page: number) => {
    const q = new URLSearchParams(
      Object.entries(f).filter(([, v]) => v !== ""),
    );
    if (page > 1) q.set("page", String(page));
    const s = q.toString();
    return `/buyer/catalog${s ? `?${s}` : ""}`;
  };
  const select = (
    id: string,
    label: string,
    value: string,
    options: [string, string][],
  ) => (
    <div>
      <label for={id}>{label}</label>
      <select id={id} name={id}>
        {options.map(([v, text]) => <option key={v} value={v} selected={v === value}>{text}
        </option>)}
      </select>
    </div>
  );
  return (
    <BuyerShell who={props.who} section="catalog" title="Catalog" problem={props.problem}>
      <form method="get" action="/buyer/catalog" class="card row filter" role="search">
        <div>
          <label for="q">Search</label>
          <input id="q" name="q" type="search" value={f.q} placeholder="Name or description" />
        </div>
        {select("right", "Grants", f.right, [
          ["", "Any right"],
          ["summarization", "Summarization"],
          ["display", "Display"],
          ["rag", "RAG"],
        ])}
        <div>
          <label for="maxPriceUsd">Display price at most (USD)</label>
          <input
            id="maxPriceUsd"
            name="maxPriceUsd"
            type="text"
            inputMode="decimal"
            value={f.maxPriceUsd}
            size={8}
          />
        </div>
        {select("surface", "Surface", f.surface, [
          ["", "Any"],
          ["mcp", "MCP"],
          ["rest", "REST"],
          ["a2a", "A2A"],
        ])}
        {select("auth", "MCP sign-in", f.auth, [
          ["", "Either"],
          ["required", "Required (OAuth)"],
          ["open", "Not required"],
        ])}
        <button type="submit">Filter</button>
      </form>
      <p class="muted" role="status">
        {props.matching === props.total
          ? plural(props.total, "publisher", { shown: count(props.total) })
          : `${count(props.matching)} of ${
            plural(props.total, "publisher", { shown: count(props.total) })
          } match`}
      </p>
      {props.publishers.length === 0
        ? (
          <p class="card">
            {props.total === 0
              ? "No publisher has content yet."
              : "No publisher matches these filters. "}
            {props.total > 0 ? <a href="/buyer/catalog">Show all publishers</a> : null}
          </p>
        )
        : (
          <Scroll label="Publishers">
            <table>
              <thead>
                <tr>
                  <th scope="col">Publisher</th>
                  <th scope="col" class="num">Articles</th>
                  <th scope="col">Grants</th>
                  <th scope="col" class="num">Display, per read</th>
                  <th scope="col">Surfaces</th>
                </tr>
              </thead>
              <tbody>
                {props.publishers.map((p) => (
                  <tr key={p.publisherId}>
                    <td>
                      <a href={`/buyer/catalog/${encodeURIComponent(p.publisherId)}`}>{p.name}</a>
                      {p.description ? <div class="muted small clip">{p.description}</div> : null}
                    </td>
                    <td class="num">{count(p.articleCount)}</td>
                    <td>
                      {BUNDLE_USES.filter((u) => p.rights[u] === "granted").map((u) => (
                        <span class="tag" key={u}>{useInWords(u)}</span>
                      ))}
                    </td>
                    <td class="num">{formatRate(p.pricingUsdCents.display)}</td>
                    <td>
                      {surfacesOf(p).join(", ")}
                      {p.requiresAuth ? <div class="muted small">MCP sign-in required</div> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <Pager label="Catalog pages" page={props.page} pages={props.pages} href={link} />
    </BuyerShell>
  );
}
