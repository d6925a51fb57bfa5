/**
 * A pay-per-crawl client, as a crawler operator would write one. With a buyer key it offers
 * `crawler-max-price` up front (the proactive flow: one round trip); without one, or when a
 * page still answers 402, it reads `crawler-price` and, within `--max-price`, retries with
 * `crawler-exact-price` (the reactive flow). Paid requests carry an Idempotency-Key, so a retry
 * after a network error is never charged twice.
 * Prints one JSON line: status, price, charged, bytes, title.
 *
 *   deno run --allow-net --allow-env scripts/crawl.ts --url https://news.example/a/b \
 *     --max-price "USD 0.10" [--user-agent "MyBot/1.0"] [--proxy 127.0.0.1:8080]
 *
 * The key comes from FOLIO_BUYER_KEY (never a flag: flags end up in shell history). `--proxy`
 * connects to that address whatever the URL's host resolves to (local testing of custom domains).
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "max-price": { type: "string", default: "USD 0.00" },
    "user-agent": {
      type: "string",
      default: "FolioExampleCrawler/1.0 (+https://example.test/bot)",
    },
    proxy: { type: "string" },
  },
});
if (!values.url) {
  console.error("--url is required");
  Deno.exit(2);
}
const key = Deno.env.get("FOLIO_BUYER_KEY") ?? "";
const client = values.proxy
  ? Deno.createHttpClient({
    proxy: {
      transport: "tcp",
      hostname: values.proxy.split(":")[0],
      port: Number(values.proxy.split(":")[1]),
    },
  })
  : undefined;

/** "USD 0.0524" → micro-dollars, or null. */
function micros(value: string | null): number | null {
  const m = /^USD (\d+)(?:\.(\d{1,6}))?$/.exec(value ?? "");
  return m ? Number(m[1]) * 1_000_000 + Number((m[2] ?? "").padEnd(6, "0")) : null;
}

const headers = { "user-agent": values["user-agent"]! };
const paying = (offer: Record<string, string>) => ({
  ...headers,
  authorization: `Bearer ${key}`,
  "idempotency-key": crypto.randomUUID(),
  ...offer,
});
let res = await fetch(values.url, {
  client,
  headers: key ? paying({ "crawler-max-price": values["max-price"]! }) : headers,
});
const price = res.headers.get("crawler-price");
if (res.status === 402 && price) {
  await res.body?.cancel();
  const asked = micros(price);
  const max = micros(values["max-price"]!);
  if (asked === null || max === null || asked > max || !key) {
    console.log(JSON.stringify({ status: 402, price, charged: null, paid: false }));
    Deno.exit(1);
  }
  res = await fetch(values.url, {
    client,
    headers: paying({ "crawler-exact-price": price }),
  });
}
const html = await res.text();
console.log(JSON.stringify({
  status: res.status,
  price,
  charged: res.headers.get("crawler-charged"),
  error: res.headers.get("crawler-error"),
  bytes: html.length,
  title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? null,
}));
client?.close();
Deno.exit(res.ok ? 0 : 1);
