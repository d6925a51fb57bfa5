/**
 * One webhook endpoint with its delivery log, and one delivery with its attempts and replay
 * (issue 34), in either portal's shell.
 */
import type { z } from "zod";
import type { deliveryDetailSchema, deliverySchema } from "../../server/domain/webhooks/schemas.ts";
import { Scroll } from "./scroll.tsx";
import { CsrfField, When, when } from "./shell.tsx";
import type { EndpointView } from "./webhooks.tsx";

export type DeliveryView = z.output<typeof deliverySchema>;
export type DeliveryDetailView = z.output<typeof deliveryDetailSchema>;

const STATE_WORDS: Record<DeliveryView["state"], string> = {
  pending: "Retrying",
  succeeded: "Delivered",
  failed: "Failed",
};

function stateText(d: DeliveryView): string {
  if (d.state === "pending" && d.attempts === 0) return "Queued";
  return STATE_WORDS[d.state];
}

/** One endpoint: its settings, its actions, and its deliveries. */
export function EndpointDetail(props: {
  base: string;
  endpoint: EndpointView;
  deliveries: DeliveryView[];
  csrfToken: string;
}) {
  const e = props.endpoint;
  const here = `${props.base}/${e.id}`;
  return (
    <>
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        <dl class="facts">
          <dt>URL</dt>
          <dd class="url">{e.url}</dd>
          {e.description
            ? (
              <>
                <dt>Description</dt>
                <dd>{e.description}</dd>
              </>
            )
            : null}
          <dt>Events</dt>
          <dd>{e.events.join(", ")}</dd>
          <dt>Signing secret</dt>
          <dd>
            <code>{e.secretHint}</code>
            {e.secretRotatedAt ? ` (rolled ${when(e.secretRotatedAt)})` : ""}
          </dd>
        </dl>
        <div class="row">
          <form method="post" action={`${here}/test`}>
            <CsrfField token={props.csrfToken} />
            <button type="submit">Send a test event</button>
          </form>
          <a class="button secondary" href={`${here}/rotate`}>Roll the secret…</a>
          <a class="button secondary" href={`${here}/delete`}>Delete…</a>
        </div>
      </section>
      <section class="card" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        {props.deliveries.length === 0
          ? (
            <p class="muted">
              Nothing sent yet. Send a test event to see a delivery here within seconds.
            </p>
          )
          : (
            <Scroll label="Deliveries">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">State</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">Created</th>
                    <th scope="col">Next attempt</th>
                  </tr>
                </thead>
                <tbody>
                  {props.deliveries.map((d) => (
                    <tr key={d.id}>
                      <td>
                        <a href={`${props.base}/deliveries/${d.id}`}>{d.eventType}</a>{" "}
                        {d.replayOf ? <span class="small">(replay)</span> : null}
                      </td>
                      <td>{stateText(d)}</td>
                      <td class="num">{d.attempts}</td>
                      <td>{d.lastStatus ?? d.lastError ?? "—"}</td>
                      <td class="nowrap">
                        <When iso={d.createdAt} />
                      </td>
                      <td class="nowrap">
                        <When iso={d.nextAttemptAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
      </section>
    </>
  );
}

/** One delivery: the event it carries, every attempt, and replay. */
export function DeliveryDetail(props: {
  base: string;
  detail: DeliveryDetailView;
  csrfToken: string;
}) {
  const { delivery: d, attempts, event } = props.detail;
  return (
    <>
      <p>
        <a href={`${props.base}/${d.endpointId}`}>← Back to the endpoint</a>
      </p>
      <section class="card" aria-labelledby="delivery-title">
        <h2 id="delivery-title">
          <code>{d.eventType}</code> · {stateText(d)}
        </h2>
        <dl class="facts">
          <dt>Event id</dt>
          <dd>
            <code>{d.eventId}</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <When iso={d.createdAt} />
          </dd>
          {d.nextAttemptAt
            ? (
              <>
                <dt>Next attempt</dt>
                <dd>
                  <When iso={d.nextAttemptAt} />
                </dd>
              </>
            )
            : null}
        </dl>
        <form method="post" action={`${props.base}/deliveries/${d.id}/replay`}>
          <CsrfField token={props.csrfToken} />
          <p class="hint" id="replay-hint">
            Sends the same event (same id) to this endpoint again, signed afresh.
          </p>
          <button type="submit" aria-describedby="replay-hint">Replay</button>
        </form>
      </section>
      <section class="card" aria-labelledby="attempts-title">
        <h2 id="attempts-title">Attempts</h2>
        {attempts.length === 0
          ? <p class="muted">Not tried yet: it is queued.</p>
          : (
            <Scroll label="Attempts">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Status</th>
                    <th scope="col">Latency</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {attempts.map((a, i) => (
                    <tr key={i}>
                      <td class="nowrap">
                        <When iso={a.at} />
                      </td>
                      <td>{a.statusCode ?? "—"}</td>
                      <td class="num nowrap">{a.latencyMs} ms</td>
                      <td>
                        {a.error ? <div>{a.error}</div> : null}
                        {a.responseExcerpt ? <code>{a.responseExcerpt}</code> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
      </section>
      <section class="card" aria-labelledby="body-title">
        <h2 id="body-title">Body</h2>
        <pre
          class="raw"
          tabIndex={0}
          aria-label="Event body"
        ><code>{JSON.stringify(event, null, 2)}</code></pre>
      </section>
    </>
  );
}
