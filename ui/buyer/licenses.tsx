/** The buyer's licenses: subscriptions, enterprise and approved requests; cancel; pending checkouts. */
import type { z } from "zod";
import type { licenseSchema } from "../../server/surfaces/marketplace/schemas.ts";
import { Pager, Scroll } from "../console/scroll.tsx";
import { When, when } from "../console/shell.tsx";
import { formatUsd } from "../../server/platform/money.ts";
import { capitalized, licenseKindInWords, usesInWords } from "../../server/platform/words.ts";
import { BuyerShell, type BuyerWho } from "./shell.tsx";

/** One entry of GET /api/marketplace/licenses. */
export type LicenseView = z.output<typeof licenseSchema>;

/** What the licenses page shows. */
export interface LicensesProps {
  who: BuyerWho;
  /** This page of the licenses, pending first, then active, then the rest; newest first. */
  licenses: LicenseView[];
  names: Record<string, string>;
  total: number;
  page: number;
  pages: number;
  notice?: string | null;
  failed?: { licenseId: string; problem: string } | null;
}

/** The words of a license's state, with the date it ends when one is set. */
export function stateText(l: LicenseView): string {
  return `${stateWord(l)}${stateDetail(l)}`;
}

function stateWord(l: LicenseView): string {
  return l.state === "pending" ? "waiting for checkout" : l.state;
}

function stateDetail(l: LicenseView): string {
  if (l.state === "active" && l.cancelsAt) return ` until ${when(l.cancelsAt)}, then ends`;
  if (l.state === "active" && l.expiresAt) return ` until ${when(l.expiresAt)} (term)`;
  return "";
}

/** GET /buyer/licenses. */
export function LicensesPage(props: LicensesProps) {
  const failed = props.failed;
  return (
    <BuyerShell
      who={props.who}
      section="licenses"
      title="Licenses"
      notice={props.notice}
      problem={failed?.problem}
    >
      {props.total === 0
        ? (
          <section class="card">
            <h2>No licenses yet</h2>
            <p>
              Without a license, reads are charged per use at each publisher's prices (up to $1,000
              a month per publisher). A monthly license covers its use cases for a fixed fee.
            </p>
            <p>
              <a class="button" href="/buyer/catalog">Find a publisher to license</a>
            </p>
          </section>
        )
        : (
          <Scroll label="Licenses">
            <table>
              <thead>
                <tr>
                  <th scope="col">Publisher</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Use cases</th>
                  <th scope="col" class="num">Monthly fee</th>
                  <th scope="col">State</th>
                  <th scope="col">Renews</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="sr-only">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.licenses.map((l) => (
                  <tr key={l.licenseId} id={l.licenseId}>
                    <td>
                      <a href={`/buyer/catalog/${encodeURIComponent(l.publisherId)}`}>
                        {props.names[l.publisherId] ?? l.publisherId}
                      </a>
                    </td>
                    <td>{capitalized(licenseKindInWords(l.kind))}</td>
                    <td>{usesInWords(l.useCases)}</td>
                    <td class="num">{formatUsd(l.monthlyFeeUsdCents)}</td>
                    <td>
                      <span class={`tag state-${l.state}`}>{stateWord(l)}</span>
                      {stateDetail(l)}
                      {failed?.licenseId === l.licenseId
                        ? <p class="problem small" role="alert">{failed.problem}</p>
                        : null}
                    </td>
                    <td class="nowrap">
                      <When iso={l.renewsAt} billing />
                    </td>
                    <td class="nowrap">
                      <When iso={l.createdAt} />
                    </td>
                    <td>
                      {l.state === "pending" && l.checkoutUrl
                        ? <a href={l.checkoutUrl}>Continue to checkout</a>
                        : null}
                      {l.state === "active" && !l.cancelsAt
                        ? (
                          <a
                            href={`/buyer/licenses/${encodeURIComponent(l.licenseId)}/cancel`}
                            aria-label={`Cancel the ${usesInWords(l.useCases)} license of ${
                              props.names[l.publisherId] ?? l.publisherId
                            }: see what happens first`}
                          >
                            Cancel…
                          </a>
                        )
                        : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      <Pager
        label="License pages"
        page={props.page}
        pages={props.pages}
        href={(n) => `/buyer/licenses?page=${n}`}
      />
    </BuyerShell>
  );
}
