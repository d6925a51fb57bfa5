/** Items: every charge as a line the buyer can check, filtered and paged, with its CSV. */
import type { z } from "zod";
import type { itemPageSchema } from "../../server/surfaces/marketplace/item_schemas.ts";
import { Scroll } from "../console/scroll.tsx";
import { count, CsrfField, When, when } from "../console/shell.tsx";
import { formatItemUsd, formatUsd, microsToCents } from "../../server/platform/money.ts";
import {
  capitalized,
  itemKindInWords,
  plural,
  surfaceInWords,
  useInWords,
} from "../../server/platform/words.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** GET /api/marketplace/items. */
export type ItemPageView = z.output<typeof itemPageSchema>;

/** An item's amount: one read's is a per-use price; a license fee is cents. */
const itemUsd = (it: { kind: string }, micros: number) =>
  formatItemUsd(micros, it.kind === "metered" || it.kind === "landing");

const USES = ["summarization", "display", "rag", "fine_tuning"];
const SURFACES = ["rest", "mcp", "a2a", "landing", "marketplace"];
const KINDS = ["metered", "landing", "subscription", "adjustment"];

/**
 * The key the buyer's agent sent with a read (Idempotency-Key), to match its own logs; the keys
 * Folio makes itself (a license's monthly fee, `sub:…`; an operator's adjustment, `operator:…`) stay
 * in the CSV and the API.
 */
function requestKey(key: string | null): string | null {
  return key && !/^(sub|operator):/.test(key) ? key : null;
}

function Choice(
  props: {
    name: string;
    label: string;
    value?: string;
    options: string[];
    words: (code: string) => string;
  },
) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">Any</option>
        {props.options.map((o) => (
          <option key={o} value={o} selected={props.value === o}>
            {capitalized(props.words(o))}
          </option>
        ))}
      </select>
    </label>
  );
}

/** GET /buyer/items. */
export function ItemsPage(
  props: {
    who: BuyerWho;
    /** The filters asked for, as the query had them. */
    filters: Record<string, string>;
    /** The publishers to filter by (the catalog's). */
    publishers: { id: string; name: string }[];
    /** null when the API refused the filters. */
    page: ItemPageView | null;
    /** Whether this is a later page (a cursor was given). */
    paged: boolean;
    problem?: string | null;
  },
) {
  const f = props.filters;
  const query = new URLSearchParams(f).toString();
  const p = props.page;
  const filtered = query !== "";
  return (
    <BuyerShell who={props.who} section="items" title="Items" problem={props.problem}>
      <p class="hint">
        Every charge is an item: each read billed to you (with its article, use, where it came in
        and the key your agent sent), each agent payment and each license fee. The items of a
        statement add up to it to the micro-dollar; each charged read also answered with a signed
        receipt, which the receipt link shows again. Statements are settled by invoice; automatic
        card collection is a future capability and is not available yet.
      </p>
      <form method="get" action="/buyer/items" class="card filters">
        <label>
          From (UTC day)
          <input type="date" name="from" value={f.from ?? ""} />
        </label>
        <label>
          To (UTC day, included)
          <input type="date" name="to" value={f.to ?? ""} />
        </label>
        <label>
          Publisher
          <select name="publisherId">
            <option value="">Any</option>
            {props.publishers.map((p) => (
              <option key={p.id} value={p.id} selected={f.publisherId === p.id}>{p.name}</option>
            ))}
          </select>
        </label>
        <Choice name="use" label="Use" value={f.use} options={USES} words={useInWords} />
        <Choice
          name="surface"
          label="Where"
          value={f.surface}
          options={SURFACES}
          words={surfaceInWords}
        />
        <Choice name="kind" label="Kind" value={f.kind} options={KINDS} words={itemKindInWords} />
        <label>
          Statement month
          <input
            type="text"
            name="statementMonth"
            value={f.statementMonth ?? ""}
            placeholder="YYYY-MM"
            maxLength={7}
          />
        </label>
        {f.usageMonth ? <input type="hidden" name="usageMonth" value={f.usageMonth} /> : null}
        {f.prepaid ? <input type="hidden" name="prepaid" value={f.prepaid} /> : null}
        <span class="row">
          <button type="submit">Filter</button>
          {filtered ? <a href="/buyer/items">Clear filters</a> : null}
          <a href={`/buyer/items.csv${query ? `?${query}` : ""}`} download>
            Download CSV
          </a>
        </span>
      </form>
      {p === null ? null : p.matching.count === 0
        ? (
          <p class="card">
            {filtered
              ? "No charges match these filters."
              : "No charges yet. Reads billed to you, agent payments and license fees appear here as they happen."}
          </p>
        )
        : (
          <>
            <p>
              {plural(p.matching.count, "item")} match,{" "}
              {formatUsd(microsToCents(p.matching.amountUsdMicros))} in all (platform fees{" "}
              {formatUsd(microsToCents(p.matching.feeUsdMicros))}).
            </p>
            <form method="post" action="/buyer/disputes">
              <CsrfField token={props.who.csrfToken} />
              <Scroll label="Charge items">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Dispute</th>
                      <th scope="col">Time</th>
                      <th scope="col">Publisher</th>
                      <th scope="col">Article</th>
                      <th scope="col">Use</th>
                      <th scope="col">Where</th>
                      <th scope="col" class="num">Price</th>
                      <th scope="col" class="num">Fee</th>
                      <th scope="col" class="num">Amount</th>
                      <th scope="col">Your request key</th>
                      <th scope="col">Receipt</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((i) => (
                      <tr key={i.id}>
                        <td>
                          {i.creditOf || i.amountUsdMicros <= 0 ? null : (
                            <input
                              type="checkbox"
                              name="itemIds"
                              value={i.id}
                              aria-label={`Dispute the charge of ${when(i.at)}`}
                            />
                          )}
                        </td>
                        <td>
                          <When iso={i.at} />
                        </td>
                        <td>{i.publisher.name}</td>
                        <td>
                          {i.creditOf
                            ? (
                              <span class="hint">
                                Credit note {i.creditNote} for item …{i.creditOf.slice(-6)}
                                {": "}
                              </span>
                            )
                            : null}
                          {i.article
                            ? (i.article.url
                              ? <a href={i.article.url}>{i.article.title ?? i.article.id}</a>
                              : (i.article.title ?? i.article.id))
                            : i.kind === "subscription"
                            ? "License fee"
                            : "—"}
                        </td>
                        <td>{i.use ? useInWords(i.use) : "—"}</td>
                        <td>{surfaceInWords(i.surface)}</td>
                        <td class="num">{itemUsd(i, i.priceUsdMicros)}</td>
                        <td class="num">{itemUsd(i, i.feeUsdMicros)}</td>
                        <td class="num">{itemUsd(i, i.amountUsdMicros)}</td>
                        <td>
                          {requestKey(i.idempotencyKey)
                            ? <code>{requestKey(i.idempotencyKey)}</code>
                            : "—"}
                        </td>
                        <td>
                          {/* The id's last characters name it in the row; the whole id is its title. */}
                          <a
                            href={`/api/marketplace/items/${encodeURIComponent(i.id)}`}
                            title={i.receiptId}
                          >
                            …{i.receiptId.slice(-6)}
                          </a>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
              <div class="card">
                <label for="dispute-reason">
                  Dispute the ticked items (of one publisher): what is wrong with them?
                </label>
                <textarea id="dispute-reason" name="reason" maxLength={2000} />
                <p>
                  <button type="submit" class="secondary">Dispute the ticked items</button>
                </p>
              </div>
            </form>
            <nav class="pager" aria-label="Item pages">
              {props.paged
                ? <a href={`/buyer/items${query ? `?${query}` : ""}`}>First page</a>
                : null}
              <span>{count(p.items.length)} on this page</span>
              {p.nextCursor
                ? (
                  <a
                    href={`/buyer/items?${new URLSearchParams({ ...f, cursor: p.nextCursor })}`}
                  >
                    Next page
                  </a>
                )
                : null}
            </nav>
          </>
        )}
    </BuyerShell>
  );
}
