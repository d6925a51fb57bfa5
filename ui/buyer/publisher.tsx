/**
 * One publisher from the buyer's side: what it grants and charges, its paywall meter and
 * enterprise terms, the standard rate card, how to connect (snippets), and the license form.
 */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import {
  Copyable,
  CopyBlock,
  CsrfField,
  type LinkedWords,
  ProblemWords,
  When,
  when,
} from "../console/shell.tsx";
import { Scroll } from "../console/scroll.tsx";
import { formatRate, formatUsd, sumCents } from "../../server/platform/money.ts";
import {
  BUNDLE_USES,
  type BundleUse,
  type CatalogPublisher,
  type RateCard,
  surfacesOf,
} from "./catalog.tsx";
import { type LicenseView, stateText } from "./licenses.tsx";
import { BuyerShell, type BuyerWho } from "./shell.tsx";
import { snippetsFor } from "./snippets.ts";
import {
  capitalized,
  licenseKindInWords,
  noun,
  useInWords,
  usesInWords,
} from "../../server/platform/words.ts";
import { RequestForm, type RequestFormProps } from "./license_request.tsx";
import type { heldRightsSchema } from "../../server/surfaces/marketplace/rights_schemas.ts";
import type { z } from "zod";

/** The buyer's rights with one publisher, as the marketplace API answers them. */
export type HeldRightsView = z.output<typeof heldRightsSchema>;

/** What the publisher page shows. */
export interface PublisherProps {
  who: BuyerWho;
  publisher: CatalogPublisher;
  rateCard: RateCard;
  /** The buyer's active and pending licenses for this publisher. */
  held: LicenseView[];
  /** The buyer's own rights here by the rights table (GET /api/marketplace/rights/<id>). */
  mine: HeldRightsView;
  /** The license form refused: its problem (at the top or beside the use cases) and the ticks. */
  failed?:
    | {
      problem: { top: string | null; field: FieldProblem | null; linked?: LinkedWords | null };
      useCases: string[];
    }
    | null;
  /**
   * What subscribing bills at once, computed with the subscribe API's rule when the page was
   * rendered (server/domain/billing/periods.ts `firstCharge`): cents per bundle, keyed like
   * `feeTotals`, and the end of the period it pays for. Null: card checkout bills the whole month.
   */
  firstCharges: { cents: Record<string, number>; periodEnd: string; quotedAt: string } | null;
  /** The request form refused: its problem and what was typed. */
  requestFailed?: RequestFormProps["failed"];
}

/** The monthly fee of a bundle on the rate card, in cents. */
export function bundleFee(card: RateCard, uses: readonly string[]): number {
  return sumCents([
    card.baseUsdCents,
    ...uses.map((u) => card.useCasesUsdCents[u as BundleUse] ?? 0),
  ]);
}

/**
 * The monthly fee of every bundle, written for the page and keyed by its use cases in
 * BUNDLE_USES order ("" for base access alone): the console script shows the one ticked, so the
 * browser does no price arithmetic (server/platform/money.ts).
 */
function feeTotals(card: RateCard): Record<string, string> {
  const totals: Record<string, string> = {};
  for (let mask = 0; mask < 1 << BUNDLE_USES.length; mask++) {
    const uses = BUNDLE_USES.filter((_, i) => mask & (1 << i));
    totals[uses.join(" ")] = formatUsd(bundleFee(card, uses));
  }
  return totals;
}

/** Every bundle's prorated first charge, written for the page like `feeTotals`. */
function firstChargeTexts(cents: Record<string, number>): Record<string, string> {
  const texts = Object.fromEntries(Object.entries(cents).map(([k, v]) => [k, formatUsd(v)]));
  return { ...texts, "": NOTHING_TICKED };
}

const NOTHING_TICKED = "the share of the bundle you tick";
const MONTHLY_FEE = "the monthly fee";

/** The bundles of BUNDLE_USES with at least one use, each with its key. */
export function bundles(): { key: string; uses: BundleUse[] }[] {
  const all = [];
  for (let mask = 1; mask < 1 << BUNDLE_USES.length; mask++) {
    const uses = BUNDLE_USES.filter((_, i) => mask & (1 << i));
    all.push({ key: uses.join(" "), uses });
  }
  return all;
}

/** The uses this buyer may ask the publisher for: those it holds no right to here. */
export function requestableUses(mine: HeldRightsView): string[] {
  return (["summarization", "display", "rag", "fine_tuning"] as const).filter((u) =>
    mine.grantedBy[u] === "none"
  );
}

/** One use's right for this buyer, and what grants it. */
function yours(mine: HeldRightsView, use: keyof HeldRightsView["grantedBy"]): string {
  const by = mine.grantedBy[use];
  return by === "license" ? "yes, your license" : by === "default" ? "yes" : "no";
}

/** GET /buyer/catalog/<publisherId>. */
export function PublisherPage(props: PublisherProps) {
  const { publisher: p, rateCard: card } = props;
  const ticked = props.failed?.useCases ?? [];
  const fieldProblem = props.failed?.problem.field ?? null;
  // For sale: what the publisher grants today (a withdrawn use cannot be bought anew).
  const granted: readonly string[] = props.mine.forSale;
  const charges = props.firstCharges;
  return (
    <BuyerShell who={props.who} section="catalog" title={p.name}>
      <p>
        <a href="/buyer/catalog">← Catalog</a>
      </p>
      {p.description ? <p>{p.description}</p> : null}
      <div class="grid">
        <div class="figure">
          <b>{p.articleCount.toLocaleString("en-US")}</b>
          <span>articles{p.chapterCount ? `, ${p.chapterCount} of them book chapters` : ""}</span>
        </div>
        <div class="figure">
          <b>{surfacesOf(p).join(" · ")}</b>
          <span>{p.requiresAuth ? "MCP clients sign in (OAuth)" : "surfaces"}</span>
        </div>
      </div>

      <section class="card" aria-labelledby="rights-title">
        <h2 id="rights-title">Rights and per-use prices</h2>
        <Scroll label="Rights and per-use prices">
          <table>
            <thead>
              <tr>
                <th scope="col">Use</th>
                <th scope="col">Granted</th>
                <th scope="col">To you</th>
                <th scope="col" class="num">Per read, metered</th>
              </tr>
            </thead>
            <tbody>
              {BUNDLE_USES.map((u) => (
                <tr key={u}>
                  <th scope="row">{capitalized(useInWords(u))}</th>
                  <td>{p.rights[u] === "granted" ? "yes" : "no"}</td>
                  <td>{yours(props.mine, u)}</td>
                  <td class="num">{formatRate(p.pricingUsdCents[u])}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">{capitalized(useInWords("fine_tuning"))}</th>
                <td>{p.rights.fine_tuning === "granted" ? "yes" : "no"}</td>
                <td>{yours(props.mine, "fine_tuning")}</td>
                <td class="num">by request</td>
              </tr>
            </tbody>
          </table>
        </Scroll>
        <p class="hint">
          Reads you hold no license for are charged these prices, up to $1,000.00 a month for this
          publisher; past that, only the rights you hold apply. Anonymous agents get{" "}
          {p.paywallMeterLimit} free paywalled {noun(p.paywallMeterLimit, "read")}{" "}
          a month (the paywall meter); your key is charged per use instead.
        </p>
        <p>
          <a href={p.termsUrl}>License terms of {p.name}</a>
        </p>
      </section>

      {p.enterpriseLicense
        ? (
          <section class="card" aria-labelledby="enterprise-title">
            <h2 id="enterprise-title">Enterprise license</h2>
            <dl class="facts">
              <dt>Covers</dt>
              <dd>{usesInWords(p.enterpriseLicense.useCases)}</dd>
              <dt>Monthly price</dt>
              <dd>{formatUsd(p.enterpriseLicense.monthlyPriceUsdCents)}</dd>
              <dt>Conditions</dt>
              <dd>{p.enterpriseLicense.conditions || "—"}</dd>
            </dl>
            <p class="hint">
              <a href="#request">Ask for it below</a>; the publisher answers with an offer on{" "}
              <a href="/buyer/offers">Requests &amp; offers</a>, and once you accept it the license
              appears under Licenses.
            </p>
          </section>
        )
        : null}

      <section class="card" aria-labelledby="license-title" id="license">
        <h2 id="license-title">License this publisher</h2>
        {props.held.length
          ? (
            <ul>
              {props.held.map((l) => (
                <li key={l.licenseId}>
                  Your {licenseKindInWords(l.kind)} for {usesInWords(l.useCases)}: {stateText(l)}.
                  {" "}
                  {l.checkoutUrl ? <a href={l.checkoutUrl}>Continue to checkout</a> : null}
                </li>
              ))}
            </ul>
          )
          : null}
        <p class="hint" id="fee-hint">
          The standard monthly license: {formatUsd(card.baseUsdCents)}{" "}
          base access plus each use case you tick below (at least one). Reads it covers are not
          charged per use. The fee is on your monthly statement (renewing on the 1st, UTC) or paid
          by card at checkout when Folio takes cards.
        </p>
        {props.failed?.problem.top
          ? (
            <p class="problem" role="alert">
              <ProblemWords
                problem={props.failed.problem.top}
                linked={props.failed.problem.linked}
              />
            </p>
          )
          : null}
        {granted.length === 0
          ? <p class="muted">{p.name} grants none of the standard use cases.</p>
          : (
            <form
              method="post"
              action={`/buyer/catalog/${encodeURIComponent(p.publisherId)}/license`}
              data-fee-totals={JSON.stringify(feeTotals(card))}
              data-first-charges={charges
                ? JSON.stringify(firstChargeTexts(charges.cents))
                : undefined}
            >
              <CsrfField token={props.who.csrfToken} />
              {charges ? <input type="hidden" name="quotedAt" value={charges.quotedAt} /> : null}
              <fieldset {...invalidIf(fieldProblem, "useCases", "use-cases-hint")}>
                <legend>Use cases</legend>
                <p class="hint" id="use-cases-hint">Tick at least one.</p>
                <FieldError problem={fieldProblem} name="useCases" />
                {BUNDLE_USES.map((u) => (
                  <label class="check" key={u}>
                    <input
                      type="checkbox"
                      name="useCases"
                      value={u}
                      checked={ticked.includes(u)}
                      disabled={!granted.includes(u)}
                    />
                    <span>
                      {capitalized(useInWords(u))} (+{formatUsd(card.useCasesUsdCents[u])} a month)
                      {granted.includes(u) ? null : <span class="muted">: not granted</span>}
                    </span>
                  </label>
                ))}
              </fieldset>
              <p>
                Monthly fee:{" "}
                <output data-fee-total aria-live="polite">
                  {formatUsd(bundleFee(card, ticked))}
                </output>
                <span class="muted" data-fee-more hidden={ticked.length > 0}>
                  {" "}plus the use cases you tick (at least one)
                </span>
              </p>
              <FirstCharge
                card={card}
                charges={charges}
                ticked={ticked}
              />
              <button type="submit" aria-describedby="fee-hint first-charge">License</button>
            </form>
          )}
      </section>

      <RequestForm
        csrf={props.who.csrfToken}
        publisherId={p.publisherId}
        publisherName={p.name}
        uses={requestableUses(props.mine)}
        enterpriseUses={p.enterpriseLicense?.useCases ?? null}
        failed={props.requestFailed}
      />

      <section class="card" aria-labelledby="connect-title">
        <h2 id="connect-title">Connect</h2>
        <p>
          Replace <code>YOUR_FOLIO_API_KEY</code> (or set <code>FOLIO_API_KEY</code>) with your{" "}
          <code>mk_…</code> key. Lost it? Rotate it under{" "}
          <a href="/buyer/keys">Keys &amp; clients</a>.
        </p>
        <h3>MCP server (streamable HTTP)</h3>
        <Copyable label="MCP server URL" value={p.mcpEndpoint} />
        {snippetsFor(p).map((s) => (
          <section key={s.id} class="snippet" aria-labelledby={`snippet-${s.id}`}>
            <h3 id={`snippet-${s.id}`}>{s.title}</h3>
            <p class="hint">{s.where}</p>
            <CopyBlock label={`${s.title} snippet`} value={s.code} />
          </section>
        ))}
      </section>

      <section class="card" aria-labelledby="card-title">
        <h2 id="card-title">Standard rate card (monthly, every publisher)</h2>
        <table>
          <tbody>
            <tr>
              <th scope="row">Base access</th>
              <td class="num">{formatUsd(card.baseUsdCents)}</td>
            </tr>
            {BUNDLE_USES.map((u) => (
              <tr key={u}>
                <th scope="row">+ {useInWords(u)}</th>
                <td class="num">{formatUsd(card.useCasesUsdCents[u])}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="hint">
          Fine-tuning: not on the rate card; <a href="#request">ask for it</a>.
        </p>
      </section>
    </BuyerShell>
  );
}

/**
 * What subscribing bills now and after, said before the click. The amount now is the monthly fee
 * prorated over the seconds left in the month when the page was shown; the script shows the ticked
 * bundle's, and the table lists every bundle's for a browser without it.
 */
function FirstCharge(
  props: {
    card: RateCard;
    charges: PublisherProps["firstCharges"];
    ticked: readonly string[];
  },
) {
  const { charges } = props;
  if (!charges) {
    return (
      <p id="first-charge">
        At checkout your card is charged the monthly fee for this month in full, then the same on
        the 1st of each month (UTC) until you cancel.
      </p>
    );
  }
  const key = BUNDLE_USES.filter((u) => props.ticked.includes(u)).join(" ");
  const shown = key === "" ? null : formatUsd(charges.cents[key]);
  const then = key === "" ? null : formatUsd(bundleFee(props.card, props.ticked));
  return (
    <>
      <p id="first-charge">
        You are billed{" "}
        <output data-first-charge aria-live="polite">{shown ?? NOTHING_TICKED}</output>{" "}
        now for the rest of this month, counted from when this page was shown ({when(
          charges.quotedAt,
        )}): that is the amount billed if you subscribe within the hour; after that, the page shows
        you the new amount first. Then{" "}
        <output data-fee-then={MONTHLY_FEE}>{then ?? MONTHLY_FEE}</output>{" "}
        on the 1st of each month from{" "}
        <When iso={charges.periodEnd} billing />, until you cancel. It goes on your monthly
        statement; your budgets apply.
      </p>
      <details>
        <summary>What each choice bills now</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Use cases</th>
              <th scope="col" class="num">Now</th>
              <th scope="col" class="num">Then monthly</th>
            </tr>
          </thead>
          <tbody>
            {bundles().map((b) => (
              <tr key={b.key}>
                <th scope="row">{usesInWords(b.uses)}</th>
                <td class="num">{formatUsd(charges.cents[b.key])}</td>
                <td class="num">{formatUsd(bundleFee(props.card, b.uses))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
