/**
 * The custom domain's proof on the settings page: its state, the exact TXT record or HTTP token
 * that proves it, what the last check found, and "Verify now".
 */
import { CsrfField, When } from "./shell.tsx";

/** The `domain` block of GET /api/publisher/settings. */
export interface DomainView {
  name: string;
  status: "pending" | "verified" | "released";
  dnsRecord: { name: string; type: "TXT"; value: string } | null;
  httpToken: { url: string; body: string } | null;
  checkedAt: string | null;
  message: string;
}

const STATUS_WORDS: Record<DomainView["status"], string> = {
  pending: "Pending: not served until verified",
  verified: "Verified: serving",
  released: "Released",
};

/** The claim's state and, while it is pending, the record to add and the verify form. */
export function DomainProof(props: { domain: DomainView | null; csrfToken: string }) {
  const d = props.domain;
  if (!d) return null;
  return (
    <div class="domain-proof" id="domain-proof">
      <p>
        <strong>{d.name}</strong> — <span data-status={d.status}>{STATUS_WORDS[d.status]}</span>
      </p>
      <p role={d.status === "verified" ? undefined : "status"}>{d.message}</p>
      {d.status === "pending" && d.dnsRecord && d.httpToken
        ? (
          <>
            <p>Prove you control it with either of these, then verify:</p>
            <table>
              <caption class="muted small">DNS record</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>
                    <code data-record="name">{d.dnsRecord.name}</code>
                  </td>
                  <td>
                    <code>{d.dnsRecord.type}</code>
                  </td>
                  <td>
                    <code data-record="value">{d.dnsRecord.value}</code>
                  </td>
                </tr>
              </tbody>
            </table>
            <p>
              Or serve the text <code>{d.httpToken.body}</code> at{" "}
              <code data-record="url">{d.httpToken.url}</code>.
            </p>
            {d.checkedAt
              ? (
                <p class="muted small">
                  Last checked <When iso={d.checkedAt} />.
                </p>
              )
              : null}
            <form method="post" action="/publisher/settings/domain/verify">
              <CsrfField token={props.csrfToken} />
              <button type="submit">Verify now</button>
            </form>
          </>
        )
        : null}
    </div>
  );
}
