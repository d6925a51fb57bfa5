/** A local stand-in for Stripe's Checkout API on 127.0.0.1, and webhook signing for tests. */
import { hmacHex } from "../server/domain/billing/stripe.ts";

/** A fake Stripe that records what it was asked. */
export interface FakeStripe extends AsyncDisposable {
  apiBase: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, Record<string, unknown>>;
  /** Checkout Sessions created (idempotent replays excluded). */
  created: number;
  requests: { method: string; path: string; auth: string | null; form: URLSearchParams }[];
  /** Marks a session as paid, as if the buyer completed checkout. */
  complete(sessionId: string): void;
  /** Env for startTestFolio. */
  env(): Record<string, string>;
}

/** Starts a fake Stripe on 127.0.0.1 port 0. */
export function startFakeStripe(): FakeStripe {
  const secretKey = "sk_test_fake_123";
  const webhookSecret = "whsec_test_fake_456";
  const sessions = new Map<string, Record<string, unknown>>();
  const byIdempotency = new Map<string, string>();
  let seq = 0;
  const fake = {
    created: 0,
    requests: [] as FakeStripe["requests"],
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const form = new URLSearchParams(await req.text());
    const auth = req.headers.get("authorization");
    fake.requests.push({ method: req.method, path: url.pathname, auth, form });
    if (auth !== `Bearer ${secretKey}`) {
      return Response.json({ error: { type: "invalid_request_error" } }, { status: 401 });
    }
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const key = req.headers.get("idempotency-key");
      const prior = key ? byIdempotency.get(key) : undefined;
      if (prior) return Response.json(sessions.get(prior));
      const id = `cs_test_${++seq}`;
      fake.created++;
      const session = {
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: "open",
        payment_status: "unpaid",
        mode: form.get("mode"),
        subscription: null,
        client_reference_id: form.get("client_reference_id"),
        // Every metadata[...] field the request set (a license's, or an invoice's).
        metadata: Object.fromEntries(
          [...form.entries()].filter(([k]) => /^metadata\[\w+\]$/.test(k))
            .map(([k, v]) => [k.slice(9, -1), v]),
        ),
        payment_intent: form.get("mode") === "payment" ? `pi_${id}` : null,
        amount_total: Number(form.get("line_items[0][price_data][unit_amount]")),
      };
      sessions.set(id, session);
      if (key) byIdempotency.set(key, id);
      return Response.json(session);
    }
    const sub = /^\/v1\/subscriptions\/([\w]+)$/.exec(url.pathname);
    if (req.method === "POST" && sub) {
      const known = [...sessions.values()].some((s) => s.subscription === sub[1]);
      if (!known) return Response.json({ error: {} }, { status: 404 });
      return Response.json({
        id: sub[1],
        object: "subscription",
        cancel_at_period_end: form.get("cancel_at_period_end") === "true",
      });
    }
    const m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
    if (req.method === "GET" && m) {
      const s = sessions.get(m[1]);
      return s ? Response.json(s) : Response.json({ error: {} }, { status: 404 });
    }
    return Response.json({ error: {} }, { status: 404 });
  });
  return {
    ...fake,
    get created() {
      return fake.created;
    },
    requests: fake.requests,
    apiBase: `http://127.0.0.1:${server.addr.port}`,
    secretKey,
    webhookSecret,
    sessions,
    complete(sessionId) {
      const s = sessions.get(sessionId)!;
      s.status = "complete";
      s.payment_status = "paid";
      s.subscription = `sub_${sessionId}`;
    },
    env() {
      return {
        STRIPE_SECRET_KEY: secretKey,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: this.apiBase,
        FOLIO_FETCH_ALLOW_LOOPBACK: "1",
      };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A `Stripe-Signature` header for `body` at unix time `t` with `secret`. */
export async function signature(
  body: string,
  options: { secret: string; t: number; extraV1?: string[] },
): Promise<string> {
  const v1 = await hmacHex(options.secret, `${options.t}.${body}`);
  return [`t=${options.t}`, ...(options.extraV1 ?? []).map((s) => `v1=${s}`), `v1=${v1}`].join(",");
}

/** A webhook event body. */
export function eventBody(id: string, type: string, object: Record<string, unknown>): string {
  return JSON.stringify({ id, object: "event", type, data: { object } });
}
