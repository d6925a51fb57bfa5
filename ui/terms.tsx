/** The public license terms page of a publisher (docs/SPEC.md "License block": termsUrl). */
import type { Publisher } from "../store/publishers.ts";
import { Page } from "./layout.tsx";
import {
  formatRate,
  formatUsd,
  METERED_CAP_MICROS,
  microsToCents,
  PLATFORM_FEE_TEXT,
} from "../server/platform/money.ts";

/** Everything the terms page shows, already converted for display. */
export interface TermsView {
  publisher: Publisher;
  /** What anyone is granted (server/domain/licensing/rights.ts `publicRights`). */
  rights: Record<"summarization" | "display" | "rag" | "fine_tuning", boolean>;
  pricesCents: { summarization: number; display: number; rag: number };
  /** The content rules in plain words, in evaluation order (server/pages/terms_rules.ts). */
  rules: string[];
  rateCard: { base: number; summarization: number; display: number; rag: number };
  enterprise: { useCases: string[]; monthlyUsdCents: number; conditions: string } | null;
  mcpUrl: string;
  requestVia: string;
}

/** Each use in words (the terms page and the OAuth consent page). */
export const USE_LABELS: Record<string, string> = {
  summarization: "Summarization (summaries and citations)",
  display: "Full display (the full article text)",
  rag: "RAG retrieval (search and passages)",
  fine_tuning: "Fine-tuning (model training)",
};

/** The terms page. */
export function TermsPage(props: TermsView) {
  const p = props.publisher;
  return (
    <Page title={`License terms: ${p.name}`} accent={p.branding.primaryColor ?? undefined}>
      <h1>License terms: {p.name}</h1>
      <p>{p.description}</p>
      <h2>Rights granted to AI agents</h2>
      <table>
        <tbody>
          {Object.entries(USE_LABELS).map(([use, label]) => (
            <tr key={use}>
              <td>{label}</td>
              <td>{props.rights[use as keyof TermsView["rights"]] ? "granted" : "denied"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Book chapters may carry a narrower author-contract ceiling that no license can exceed.</p>
      <p>
        A license the publisher approves (an enterprise license or a license request) grants its
        uses for its term even where they are denied above. A use the publisher withdraws stays
        granted to current subscribers until the end of the month they paid for, when their
        subscription ends; it cannot be subscribed to anew.
      </p>
      <h2>Per-use prices (paywalled articles)</h2>
      <p>
        By default: summary {formatRate(props.pricesCents.summarization)} · full display{" "}
        {formatRate(props.pricesCents.display)} · RAG {formatRate(props.pricesCents.rag)}{" "}
        per read, billed on the buyer's monthly statement, capped at{" "}
        {formatUsd(microsToCents(METERED_CAP_MICROS))}{" "}
        per publisher per month. Agents paying on the publisher's pages pay the price plus a{" "}
        {PLATFORM_FEE_TEXT}{" "}
        platform fee. An article may carry its own full-display price, which takes precedence over
        the rules below and the default.
      </p>
      {props.rules.length > 0 && (
        <>
          <h2>Content rules</h2>
          <p>
            These rules change the defaults, in this order: the first that matches an article sets
            its policy and price; territory restrictions always apply.
          </p>
          <ul>
            {props.rules.map((sentence, i) => <li key={i}>{sentence}</li>)}
          </ul>
        </>
      )}
      <h2>Monthly subscription</h2>
      <p>
        Base access {formatUsd(props.rateCard.base)}, plus summarization{" "}
        {formatUsd(props.rateCard.summarization)}, display {formatUsd(props.rateCard.display)}, RAG
        {" "}
        {formatUsd(props.rateCard.rag)}. A subscription suppresses per-use charges for the use cases
        it covers.
      </p>
      {props.enterprise && (
        <>
          <h2>Enterprise license</h2>
          <p>
            Use cases: {props.enterprise.useCases.join(", ")};{" "}
            {formatUsd(props.enterprise.monthlyUsdCents)} per month. {props.enterprise.conditions}
          </p>
        </>
      )}
      <h2>How to ask for more</h2>
      <p>{props.requestVia}</p>
      <p>
        MCP server: <code>{props.mcpUrl}</code>
      </p>
    </Page>
  );
}
