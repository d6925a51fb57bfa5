/**
 * Webhooks in either portal (issue 34): the endpoints with the add form, one endpoint with its
 * delivery log, one delivery with its attempts, and the secret shown once. The portal's shell
 * wraps them (server/pages/kit/webhooks.ts hands over the data).
 */
import type { z } from "zod";
import type {
  deliveryDetailSchema,
  deliverySchema,
  endpointSchema,
} from "../../server/domain/webhooks/schemas.ts";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { Scroll } from "./scroll.tsx";
import { Copyable, CsrfField, when } from "./shell.tsx";

export type EndpointView = z.output<typeof endpointSchema>;
export type DeliveryView = z.output<typeof deliverySchema>;
export type DeliveryDetailView = z.output<typeof deliveryDetailSchema>;

/** The event types the portal's owner can subscribe to, with their words. */
export type EventChoice = readonly [type: string, words: string];

/** The new secret, once: after adding an endpoint or rolling its secret. */
export function SecretOnce(props: { secret: string; next: string }) {
  return (
    <section class="card key-once" aria-labelledby="secret-title">
      <h2 id="secret-title">Your signing secret</h2>
      <p class="warning">
        <strong>Copy it now: it is shown only this once.</strong>{" "}
        Your receiver needs it to check each delivery's <code>Folio-Signature</code>.
      </p>
      <Copyable label="signing secret" value={props.secret} secret />
      <p>
        <a class="button" href={props.next}>Done</a>
      </p>
    </section>
  );
}

/** What the add form showed when refused: what was typed and the problem beside its field. */
export interface AddForm {
  url: string;
  description: string;
  events: string[];
  field: FieldProblem | null;
}

/** The endpoint list and the add form. */
export function EndpointList(props: {
  base: string;
  endpoints: EndpointView[];
  choices: readonly EventChoice[];
  csrfToken: string;
  form?: AddForm | null;
}) {
  const form = props.form ?? { url: "", description: "", events: [], field: null };
  return (
    <>
      <section class="card" aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        <p class="hint">
          Folio posts each event to your endpoints as JSON, signed with the endpoint's secret in the
          {" "}
          <code>Folio-Signature</code>{" "}
          header (<code>t=&lt;unix time&gt;,v1=&lt;HMAC-SHA256 of "t.body"&gt;</code>, as Stripe
          does). A 2xx answer within 10 seconds is success; anything else is retried for about three
          days.
        </p>
        {props.endpoints.length === 0
          ? <p class="muted">No endpoint yet: add one below to be told when things happen.</p>
          : (
            <Scroll label="Webhook endpoints">
              <table>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">Secret</th>
                    <th scope="col">Added</th>
                  </tr>
                </thead>
                <tbody>
                  {props.endpoints.map((e) => (
                    <tr key={e.id}>
                      <td class="url">
                        <a href={`${props.base}/${e.id}`}>{e.url}</a>
                        {e.description ? <div class="small">{e.description}</div> : null}
                      </td>
                      <td>{e.events.join(", ")}</td>
                      <td>
                        <code>{e.secretHint}</code>
                      </td>
                      <td class="nowrap">{when(e.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
      </section>
      <section class="card" aria-labelledby="add-title">
        <h2 id="add-title">Add an endpoint</h2>
        <form method="post" action={`${props.base}/add`}>
          <CsrfField token={props.csrfToken} />
          <label for="url">Endpoint URL</label>
          <input
            {...invalidIf(form.field, "url", "url-hint")}
            id="url"
            name="url"
            type="url"
            required
            value={form.url}
            placeholder="https://example.com/folio/webhooks"
          />
          <p class="hint" id="url-hint">https, on a public address.</p>
          <FieldError problem={form.field} name="url" />
          <label for="description">Description (optional)</label>
          <input
            {...invalidIf(form.field, "description")}
            id="description"
            name="description"
            maxLength={200}
            value={form.description}
          />
          <FieldError problem={form.field} name="description" />
          <fieldset {...invalidIf(form.field, "events")}>
            <legend>Events to send</legend>
            {props.choices.map(([type, words]) => (
              <label class="check" key={type}>
                <input
                  type="checkbox"
                  name="events"
                  value={type}
                  checked={form.events.includes(type)}
                />{" "}
                <code>{type}</code> — {words}
              </label>
            ))}
            <FieldError problem={form.field} name="events" />
          </fieldset>
          <p>
            <button type="submit">Add endpoint</button>
          </p>
        </form>
      </section>
    </>
  );
}

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
                      <td class="nowrap">{when(d.createdAt)}</td>
                      <td class="nowrap">{when(d.nextAttemptAt)}</td>
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
          <dd>{when(d.createdAt)}</dd>
          {d.nextAttemptAt
            ? (
              <>
                <dt>Next attempt</dt>
                <dd>{when(d.nextAttemptAt)}</dd>
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
                      <td class="nowrap">{when(a.at)}</td>
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
