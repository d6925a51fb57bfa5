/**
 * The webhook pages of either portal (issue 34): /publisher/webhooks over /api/publisher, and
 * /buyer/webhooks over /api/marketplace. Every action is the API's webhook operation
 * (server/domain/webhooks/routes.ts); rolling a secret and deleting ask first on a page of their
 * own, so both work without JavaScript.
 */
import { type Context, Hono } from "hono";
import type { ComponentChildren } from "preact";
import { renderPage } from "../../../ui/layout.tsx";
import { Confirm } from "../../../ui/console/confirm.tsx";
import { type PortalFrame, PortalShell, type SignedIn } from "../../../ui/console/shell.tsx";
import {
  type AddForm,
  EndpointList,
  type EventChoice,
  SecretGone,
  SecretOnce,
} from "../../../ui/console/webhooks.tsx";
import { DeliveryDetail, EndpointDetail } from "../../../ui/console/webhook_log.tsx";
import {
  deliveryDetailSchema,
  deliveryListSchema,
  deliveryOneSchema,
  endpointListSchema,
  endpointOneSchema,
  endpointSecretSchema,
} from "../../domain/webhooks/schemas.ts";
import { type ApiFetch, callApi } from "./api.ts";
import { formProblem } from "./field_errors.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "./forms.ts";
import { must, pageStatus, segment } from "./pages.ts";
import type { PortalEnv } from "./session.ts";
import { redirectToShowOnce, takeShownOnce } from "./shown_once.ts";
import type { AppDeps } from "../../deps.ts";

/** Where the pages live and which API and events they are over. */
export interface HookPortal {
  frame: PortalFrame;
  /** The pages' address for links, e.g. "/publisher/webhooks" (their routes are "/webhooks…"). */
  base: string;
  /** The API prefix the webhook operations hang under, e.g. "/api/publisher". */
  api: string;
  choices: readonly EventChoice[];
}

const NOTICES: Record<string, string> = {
  deleted: "Endpoint deleted, with its delivery log.",
  test: "Test event queued: it is sent within seconds. Reload to see it delivered.",
  replayed: "Delivery queued again: it is sent within seconds.",
  added: "Endpoint added. Send it a test event from its page.",
  rolled: "New secret made; the old one no longer signs.",
};

const FIELDS = {
  url: { name: "url", label: "Endpoint URL" },
  description: { name: "description", label: "Description" },
  events: { name: "events", label: "Events to send", plain: "tick at least one event" },
};

type Env = PortalEnv<SignedIn>;

/** The pages. */
export function webhookPages(
  deps: Pick<AppDeps, "config">,
  api: ApiFetch,
  portal: HookPortal,
): Hono<Env> {
  const app = new Hono<Env>();
  const { base } = portal;
  const path = (rest: string) => `${portal.api}${rest}`;
  const page = (
    c: Context<Env>,
    title: string,
    children: ComponentChildren,
    extra: { notice?: string | null; problem?: string | null; status?: number } = {},
  ) =>
    c.html(
      renderPage(PortalShell({
        frame: portal.frame,
        who: c.get("who"),
        section: "webhooks",
        title,
        notice: extra.notice ?? noticeOf(c, NOTICES),
        problem: extra.problem,
        children,
      })),
      pageStatus(extra.status ?? 200),
    );

  const list = async (c: Context<Env>, form: AddForm | null = null, status = 200, top?: string) => {
    const { endpoints } = must(
      await callApi(c, api, path("/webhook-endpoints"), endpointListSchema),
    );
    const body = EndpointList({
      base,
      endpoints,
      choices: portal.choices,
      csrfToken: c.get("who").csrfToken,
      form,
    });
    return page(c, "Webhooks", body, { status, problem: top });
  };

  app.get("/webhooks", (c) => list(c));

  app.post(`/webhooks/add`, formLimit, async (c) => {
    const f = await readForm(c);
    const events = ([] as string[]).concat(f.events ?? []);
    const input = {
      url: field(f, "url").trim(),
      description: field(f, "description").trim(),
      events,
    };
    const made = await send(c, api, f, path("/webhook-endpoints"), {
      method: "POST",
      json: { ...input, description: input.description || undefined },
    }, endpointSecretSchema);
    if (!made.ok) {
      const { top, field: bad } = formProblem(made, FIELDS);
      return list(c, { ...input, field: bad }, made.status, top ?? undefined);
    }
    return await showSecret(c, segment(made.body.endpoint.id), made.body.secret, "added");
  });

  // A made or rolled secret goes through a redirect, so a reload posts nothing (issue 42).
  const showSecret = (c: Context<Env>, id: string, secret: string, done: string) =>
    redirectToShowOnce(
      c,
      deps,
      `${base}/${id}/secret`,
      c.get("who").csrfToken,
      secret,
      `?done=${done}`,
    );

  app.get(`/webhooks/:id/secret`, async (c) => {
    const id = segment(c.req.param("id"));
    const secret = await takeShownOnce(c, c.get("who").csrfToken);
    const next = `${base}/${id}`;
    if (secret) return page(c, "Signing secret", SecretOnce({ secret, next }));
    return page(c, "Signing secret", SecretGone({ next, rotate: `${base}/${id}/rotate` }));
  });

  // Deliveries first: "/deliveries/…" is not an endpoint id.
  app.get(`/webhooks/deliveries/:id`, async (c) => {
    const id = segment(c.req.param("id"));
    const detail = must(
      await callApi(c, api, path(`/webhook-deliveries/${id}`), deliveryDetailSchema),
    );
    const body = DeliveryDetail({ base, detail, csrfToken: c.get("who").csrfToken });
    return page(c, "Delivery", body);
  });

  app.post(`/webhooks/deliveries/:id/replay`, formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const sent = await send(c, api, f, path(`/webhook-deliveries/${id}/replay`), {
      method: "POST",
    }, deliveryOneSchema);
    if (!sent.ok) return page(c, "Delivery", null, refusal(sent));
    return doneRedirect(c, `${base}/${segment(sent.body.delivery.endpointId)}`, "replayed");
  });

  const endpoint = async (c: Context<Env>, id: string) =>
    must(await callApi(c, api, path(`/webhook-endpoints/${segment(id)}`), endpointOneSchema))
      .endpoint;

  app.get(`/webhooks/:id`, async (c) => {
    const id = c.req.param("id");
    const e = await endpoint(c, id);
    const { deliveries } = must(
      await callApi(
        c,
        api,
        path(`/webhook-endpoints/${segment(id)}/deliveries`),
        deliveryListSchema,
      ),
    );
    const body = EndpointDetail({
      base,
      endpoint: e,
      deliveries,
      csrfToken: c.get("who").csrfToken,
    });
    return page(c, "Webhook endpoint", body);
  });

  app.post(`/webhooks/:id/test`, formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const sent = await send(c, api, f, path(`/webhook-endpoints/${id}/test`), { method: "POST" });
    if (!sent.ok) return page(c, "Webhook endpoint", null, refusal(sent));
    return doneRedirect(c, `${base}/${id}`, "test");
  });

  app.get(`/webhooks/:id/rotate`, async (c) => {
    const e = await endpoint(c, c.req.param("id"));
    return page(
      c,
      "Roll the signing secret",
      Confirm({
        heading: "Roll this endpoint's signing secret?",
        children: [
          `A new secret is made for ${e.url} and shown once. The current secret (${e.secretHint}) ` +
          "stops signing at once: every delivery from now on, retries included, is signed with the " +
          "new one, so put it in your receiver straight away.",
        ],
        action: `${base}/${segment(e.id)}/rotate`,
        button: "Roll the secret",
        cancelHref: `${base}/${segment(e.id)}`,
        csrfToken: c.get("who").csrfToken,
      }),
    );
  });

  app.post(`/webhooks/:id/rotate`, formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const rolled = await send(c, api, f, path(`/webhook-endpoints/${id}/rotate-secret`), {
      method: "POST",
    }, endpointSecretSchema);
    if (!rolled.ok) return page(c, "Roll the signing secret", null, refusal(rolled));
    return await showSecret(c, id, rolled.body.secret, "rolled");
  });

  app.get(`/webhooks/:id/delete`, async (c) => {
    const e = await endpoint(c, c.req.param("id"));
    return page(
      c,
      "Delete the endpoint",
      Confirm({
        heading: "Delete this endpoint?",
        children: [
          `Folio stops sending events to ${e.url} at once, drops the deliveries still queued for ` +
          "it, and deletes its delivery log. This cannot be undone.",
        ],
        action: `${base}/${segment(e.id)}/delete`,
        button: "Delete the endpoint",
        cancelHref: `${base}/${segment(e.id)}`,
        csrfToken: c.get("who").csrfToken,
      }),
    );
  });

  app.post(`/webhooks/:id/delete`, formLimit, async (c) => {
    const f = await readForm(c);
    const id = segment(c.req.param("id"));
    const gone = await send(c, api, f, path(`/webhook-endpoints/${id}`), { method: "DELETE" });
    if (!gone.ok) return page(c, "Delete the endpoint", null, refusal(gone));
    return doneRedirect(c, base, "deleted");
  });
  return app;
}

/** A refused action's page: the API's words at the top, its status. */
function refusal(answer: { problem: string | null; status: number }) {
  return { problem: answer.problem, status: answer.status };
}
