/**
 * Webhooks in either portal (issue 34): the endpoints with the add form and the secret shown once
 * (one endpoint's delivery log and one delivery are in webhook_log.tsx). The portal's shell wraps
 * them (server/pages/kit/webhooks.ts hands over the data).
 */
import type { z } from "zod";
import type { endpointSchema } from "../../server/domain/webhooks/schemas.ts";
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import { Scroll } from "./scroll.tsx";
import { Copyable, CsrfField, When } from "./shell.tsx";

export type EndpointView = z.output<typeof endpointSchema>;

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

/** The secret's page once it has been shown (a reload, a second visit): nothing to show. */
export function SecretGone(props: { next: string; rotate: string }) {
  return (
    <section class="card" aria-labelledby="secret-title">
      <h2 id="secret-title">The signing secret was shown once already</h2>
      <p>
        Folio keeps only a hint of it. If you did not copy it,{" "}
        <a href={props.rotate}>roll the secret</a> to make a new one.
      </p>
      <p>
        <a class="button" href={props.next}>Back to the endpoint</a>
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
                      <td class="nowrap">
                        <When iso={e.createdAt} />
                      </td>
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
