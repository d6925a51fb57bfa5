/**
 * Issue 42 "Figures that disagree": one month seeded the way buyers and agents make it (metered
 * REST reads at a sub-cent price, a landing-page read with the 4.7% fee, a license fee prorated to
 * the second, an accepted offer), then every figure of it read back from the rendered pages, the
 * CSVs, the invoice and the APIs, and held to the ledger: to the micro-dollar in exports and the
 * API, to the cent (the micro-dollar sum rounded once) on pages, and every printed document adding
 * up as printed (docs/decisions/billing.md "One rounding rule").
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { closeMonth } from "../server/domain/billing/close.ts";
import { formatUsd, microsToWholeCents } from "../server/platform/money.ts";
import { monthInWords } from "../server/platform/local_time.ts";
import { keyVisitor, portalSignUp } from "./buyer_helpers.ts";
import { hidden, textOf } from "./console_helpers.ts";
import { DEMO_EMAIL, demoVisitor, signIn } from "./console_activity_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { api, type Body, seedMonth } from "./figures_helpers.ts";

/** Whole cents of a printed amount, "$1,234.56" → 123456 (or "-$0.03" → -3). */
function cents(printed: string): number {
  const m = /^(-|−)?\$([\d,]+)\.(\d\d)$/.exec(printed);
  assert.ok(m, `"${printed}" is an amount in cents`);
  const value = Number(m[2].replaceAll(",", "")) * 100 + Number(m[3]);
  return m[1] ? -value : value;
}

const AMOUNT = String.raw`-?\$[\d,]+\.\d\d`;

/** The amount printed right after `label` in `text` (the label is a regex source). */
function after(text: string, label: string): number {
  const m = new RegExp(`${label} (${AMOUNT})`).exec(text);
  assert.ok(m, `no amount after /${label}/ in: ${text.slice(0, 4000)}`);
  return cents(m[1]);
}

/** The amount printed right before `label` (a figure: value, then its label). */
function before(text: string, label: string): number {
  const m = new RegExp(`(${AMOUNT}) ${label}`).exec(text);
  assert.ok(m, `no amount before /${label}/ in: ${text.slice(0, 4000)}`);
  return cents(m[1]);
}

/** Every amount in the cells of the rows of the table labelled `label`, row by row. */
function tableAmounts(html: string, label: string): number[][] {
  // A wide table's scroll region is named "label (table)" (ui/console/scroll.tsx).
  const named = html.indexOf(`aria-label="${label} (table)"`);
  const start = named >= 0 ? named : html.indexOf(`aria-label="${label}"`);
  assert.ok(start >= 0, `no table "${label}"`);
  const table = html.slice(start, html.indexOf("</table>", start));
  const body = table.slice(table.indexOf("<tbody"));
  return [...body.matchAll(/<tr[\s\S]*?<\/tr>/g)].map((row) =>
    [...row[0].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)]
      .map((cell) => textOf(cell[1]))
      .filter((cell) => new RegExp(`^${AMOUNT}$`).test(cell))
      .map(cents)
  );
}

const sum = (ns: number[]) => ns.reduce((t, n) => t + n, 0);

/** The ledger's own figures for the buyer and the demo publisher, in micros. */
async function ledger(folio: TestFolio, month: string) {
  const one = async (sql: string, ...args: string[]) =>
    Number((await folio.store.db.execute({ sql, args: [month, ...args] })).rows[0].v);
  return {
    billed: await one(
      "SELECT COALESCE(SUM(price_micros + fee_micros), 0) AS v FROM charges WHERE statement_month = ?",
    ),
    earned: await one(
      "SELECT COALESCE(SUM(price_micros), 0) AS v FROM charges WHERE statement_month = ?",
    ),
    fees: await one(
      "SELECT COALESCE(SUM(fee_micros), 0) AS v FROM charges WHERE statement_month = ?",
    ),
    perRead: await one(
      `SELECT COALESCE(SUM(price_micros + fee_micros), 0) AS v FROM charges
       WHERE statement_month = ? AND kind IN ('metered', 'landing')`,
    ),
    readsEarned: await one(
      `SELECT COALESCE(SUM(price_micros), 0) AS v FROM charges
       WHERE statement_month = ? AND kind IN ('metered', 'landing')`,
    ),
  };
}

Deno.test("every figure of a month agrees across the pages, the CSVs, the invoice and the API", async () => {
  await using folio = await testFolio();
  const buyer = await portalSignUp(folio, { name: "Figures AI" });
  const offerId = await seedMonth(folio, buyer);

  // The offer: the page says what accepting bills, and a later click bills exactly that.
  const offers = await buyer.visitor.get("/buyer/offers");
  const shownFirst = after(textOf(offers.html), "Accepting bills");
  assert.match(textOf(offers.html), new RegExp(`Accept and pay \\${formatUsd(shownFirst)}`));
  const quotedAt = hidden(offers.html, "quotedAt");
  const quoted = (await api(folio, buyer.apiKey, `/api/marketplace/offers/${offerId}`)).body;
  const quotedMicros = Math.round(quoted.acceptNow.firstChargeUsdCents * 10_000);
  assert.equal(microsToWholeCents(quotedMicros), shownFirst);
  folio.clock.set("2026-11-15T12:07:31Z"); // the reader takes seven minutes to decide
  const accepted = await buyer.visitor.post(`/buyer/offers/${offerId}/accept`, {
    _csrf: hidden(offers.html),
    quotedAt,
  });
  assert.equal(accepted.status, 200, accepted.html);
  const offerCharge = await folio.store.db.execute(
    "SELECT price_micros FROM charges WHERE kind = 'subscription' ORDER BY price_micros DESC",
  );
  assert.equal(Number(offerCharge.rows[0].price_micros), quotedMicros, "billed as quoted");

  const month = "2026-11";
  const l = await ledger(folio, month);
  const billed = microsToWholeCents(l.billed);
  const earned = microsToWholeCents(l.earned);
  assert.ok(l.fees > 0 && l.billed % 10_000 !== 0, "a month with fees and sub-cent amounts");

  // The API: micro-dollars exact, cents the micro-dollar sum rounded once.
  const statement = (await api(folio, buyer.apiKey, "/api/marketplace/statement")).body;
  assert.equal(statement.totalUsdMicros, l.billed);
  assert.equal(statement.totalUsdCents, billed);
  assert.equal(sum(statement.lines.map((x: Body) => x.amountUsdMicros)), l.billed);
  assert.equal(sum(statement.lines.map((x: Body) => x.amountUsdCents)), billed);
  for (const x of statement.lines) assert.equal(x.priceUsdCents + x.feeUsdCents, x.amountUsdCents);
  const pk = folio.seeded!.apiKey;
  const earnings = (await api(folio, pk, "/api/publisher/earnings")).body.months[0];
  assert.equal(earnings.earningsUsdCents, earned);
  assert.equal(
    earnings.meteredUsdCents + earnings.landingUsdCents + earnings.subscriptionUsdCents +
      earnings.adjustmentsUsdCents,
    earned,
  );
  assert.deepEqual(earnings.payout, { state: "accruing", amountUsdCents: earned });
  const payout = (await api(folio, pk, `/api/publisher/payouts?month=${month}`)).body;
  assert.equal(payout.totals.netUsdMicros, l.earned);
  assert.equal(payout.payout.state, "accruing");

  // The publisher's pages: one "earned", the same on Overview, Earnings and Payouts.
  const publisher = await demoVisitor(folio);
  const overview = textOf((await publisher.get("/publisher")).html);
  assert.equal(before(overview, "earned this month"), earned);
  assert.match(overview, /Earned: your prices on this month's statements/);
  // Every charged read is an article read (the landing path's too), counted once on each page.
  const figure = (label: string) => Number(new RegExp(`(\\d+) ${label}`).exec(overview)![1]);
  assert.equal(figure("charged reads"), earnings.chargedReads);
  assert.equal(figure("charged reads"), 4);
  assert.equal(figure("article reads"), 4);
  const earningsPage = await publisher.get("/publisher/earnings");
  const earningsText = textOf(earningsPage.html);
  assert.equal(before(earningsText, `earned in ${monthInWords(month)} so far`), earned);
  assert.match(earningsText, /Earned: your prices on this month's statements/);
  const [row] = tableAmounts(earningsPage.html, "Earnings per month");
  // Metered, landing, license fees, your earnings, platform fees; then the payout and its state.
  assert.equal(row[0] + row[1] + row[2], row[3], "the parts add up to the month");
  assert.deepEqual([row[3], row[4]], [earned, microsToWholeCents(l.fees)]);
  assert.match(
    earningsText,
    new RegExp(`\\${formatUsd(earned)} accruing: the month is in progress`),
  );
  const window = (await api(folio, pk, "/api/publisher/analytics?days=30")).body.totals;
  assert.equal(window.earningsUsdCents, microsToWholeCents(l.readsEarned));
  assert.equal(after(earningsText, "In these days:"), microsToWholeCents(l.readsEarned));

  const payoutsPage = await publisher.get(`/publisher/payouts?month=${month}`);
  const payoutsText = textOf(payoutsPage.html);
  const lines = tableAmounts(
    payoutsPage.html,
    `Lines of the ${monthInWords(month)} payout statement`,
  );
  for (const [gross, fee, net] of lines) assert.equal(fee + net, gross);
  assert.equal(sum(lines.map((x) => x[2])), earned);
  assert.equal(sum(lines.map((x) => x[1])), after(payoutsText, "Platform fees"));
  assert.equal(after(payoutsText, String.raw`Net \(yours\)`), earned);
  assert.equal(after(payoutsText, "Payout"), earned);
  assert.match(payoutsText, /Payout \$[\d,.]+, accruing: the month is in progress/);

  // Traffic: each article's earnings, its reads' prices summed and rounded once.
  const traffic = textOf((await publisher.get("/publisher/traffic")).html);
  const byEarnings = (await api(folio, pk, "/api/publisher/analytics/articles?by=earnings&days=30"))
    .body.articles as Body[];
  for (const a of byEarnings.filter((x) => x.earningsUsdCents > 0)) {
    const rs = await folio.store.db.execute({
      sql: "SELECT SUM(price_micros) AS v FROM charges WHERE article_id = ?",
      args: [a.id],
    });
    assert.equal(Math.round(a.earningsUsdCents * 10_000), Number(rs.rows[0].v), "API exact");
    assert.ok(
      traffic.includes(
        `${a.title} Its calls ${a.reads} ${a.chargedReads} ${
          formatUsd(microsToWholeCents(Number(rs.rows[0].v)))
        }`,
      ),
      `${a.title} on Traffic`,
    );
  }

  // The payout CSV: micro-dollars, the total row the sum of its lines.
  const payoutCsv: string[][] = parse(
    (await publisher.get(`/publisher/payouts/${month}.csv`)).html,
  );
  const net = payoutCsv[0].indexOf("net_usd_micros");
  assert.equal(sum(payoutCsv.slice(1, -1).map((r) => Number(r[net]))), l.earned);
  assert.equal(Number(payoutCsv.at(-1)![net]), l.earned);

  // The buyer's statement CSV: labelled micro-dollars; Total = the lines = the ledger.
  const csv: string[][] = parse((await buyer.visitor.get(`/buyer/statements/${month}.csv`)).html);
  const amount = csv[0].indexOf("amount_usd_micros");
  assert.ok(amount > 0 && csv[0].includes("price_usd_micros"), csv[0].join());
  const csvLines = csv.slice(1, -1);
  assert.equal(Number(csv.at(-1)![amount]), sum(csvLines.map((r) => Number(r[amount]))));
  assert.equal(Number(csv.at(-1)![amount]), l.billed);
  for (const col of ["price_usd_micros", "fee_usd_micros"]) {
    const i = csv[0].indexOf(col);
    assert.equal(Number(csv.at(-1)![i]), sum(csvLines.map((r) => Number(r[i]))), col);
  }
  assert.ok(csv.at(-1)![3].includes(`invoiced as ${(billed / 100).toFixed(2)} USD`));

  // The buyer's pages: the overview's month is the statement's.
  const home = textOf((await buyer.visitor.get("/buyer")).html);
  assert.equal(before(home, "billed this month so far"), billed);
  assert.equal(after(home, "Per-read spend this month:"), microsToWholeCents(l.perRead));
  const statementPage = await buyer.visitor.get(`/buyer/statements/${month}`);
  const st = textOf(statementPage.html);
  const stLines = tableAmounts(statementPage.html, `Lines of the ${monthInWords(month)} statement`);
  for (const [price, fee, amt] of stLines) assert.equal(price + fee, amt);
  assert.equal(sum(stLines.map((x) => x[2])), billed);
  assert.equal(after(st, "Total"), billed);
  assert.equal(
    after(st, "License fees") + after(st, "Metered reads") + after(st, "Agent payments") +
      after(st, "Adjustments"),
    billed,
  );
  assert.equal(after(st, "Amount due"), billed);

  // The draft invoice: lines at the publishers' prices, subtotal, fee, total, due: as printed.
  const draft = await buyer.visitor.get(`/buyer/statements/${month}/invoice`);
  assertInvoiceAddsUp(draft.html, billed, microsToWholeCents(l.earned));

  // The month is over, not yet closed: Earnings and Payouts say the same state, in the same words.
  folio.clock.set("2026-12-01T00:05:00Z");
  const later = await signIn(folio, DEMO_EMAIL);
  const over = /pending: the month is over, due and not paid yet/;
  assert.match(textOf((await later.get("/publisher/earnings")).html), over);
  assert.match(textOf((await later.get(`/publisher/payouts?month=${month}`)).html), over);
  assert.equal(
    (await api(folio, pk, "/api/publisher/earnings")).body.months[0].payout.state,
    "pending",
  );

  // Closed: the issued invoice, the invoices list and the API still say the same, to the micro.
  await closeMonth(folio.store.db, { month, now: folio.clock.now() });
  const closedEarnings = textOf((await later.get("/publisher/earnings")).html);
  assert.match(closedEarnings, new RegExp(`\\${formatUsd(earned)} pending: the month is over`));
  const history = (await api(folio, pk, "/api/publisher/payouts/history")).body.payouts[0];
  assert.equal(history.earnedUsdMicros, l.earned);
  const again = await keyVisitor(folio, buyer.apiKey);
  const issued = await again.get(`/buyer/statements/${month}/invoice`);
  assert.match(textOf(issued.html), /Invoice number FOLIO-\d{6}/);
  assertInvoiceAddsUp(issued.html, billed, microsToWholeCents(l.earned));
  const invoices = (await api(folio, buyer.apiKey, "/api/marketplace/invoices")).body;
  const invoice = invoices.invoices.find((i: Body) => i.month === month);
  assert.equal(invoice.totalUsdMicros, l.billed);
  assert.equal(invoice.amountDueUsdCents, billed);
  const list = await again.get("/buyer/statements");
  const listText = textOf(list.html);
  assert.match(listText, new RegExp(`${monthInWords(month)} closed \\${formatUsd(billed)}`));
  assert.match(
    listText,
    new RegExp(`${invoice.number} ${monthInWords(month)} .*?\\${formatUsd(billed)}`),
  );
  assert.equal(after(listText, "Balance due"), billed);
});

Deno.test("a quote older than an hour is refused and bills nothing; the page shows today's figure", async () => {
  await using folio = await testFolio();
  const buyer = await portalSignUp(folio, { name: "Late AI" });
  const offerId = await seedMonth(folio, buyer);
  const offers = await buyer.visitor.get("/buyer/offers");
  const quotedAt = hidden(offers.html, "quotedAt");
  const before = (await folio.store.db.execute("SELECT COUNT(*) AS n FROM charges")).rows[0].n;
  folio.clock.set("2026-11-15T13:00:01Z");
  const late = await buyer.visitor.post(`/buyer/offers/${offerId}/accept`, {
    _csrf: hidden(offers.html),
    quotedAt,
  });
  assert.equal(late.status, 400);
  assert.match(textOf(late.html), /more than an hour old/);
  assert.notEqual(hidden(late.html, "quotedAt"), quotedAt, "the page quotes again");
  for (const bad of ["2026-11-15T13:00:02Z", "2026-10-31T23:59:59Z", "yesterday"]) {
    const r = await api(folio, buyer.apiKey, `/api/marketplace/offers/${offerId}/accept`, {
      method: "POST",
      body: JSON.stringify({ quotedAt: bad }),
    });
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.param, "quotedAt");
  }
  const after = (await folio.store.db.execute("SELECT COUNT(*) AS n FROM charges")).rows[0].n;
  assert.equal(after, before, "nothing billed");
  const open = await api(folio, buyer.apiKey, `/api/marketplace/offers/${offerId}`);
  assert.equal(open.body.state, "open");
});

/** An invoice page whose lines, subtotal, fee, total and amount due add up as printed. */
function assertInvoiceAddsUp(html: string, totalCents: number, subtotalCents: number) {
  const text = textOf(html);
  const lines = tableAmounts(html, "Line items").map((r) => r[0]);
  const subtotal = after(text, String.raw`Subtotal \(the lines above\)`);
  const fee = after(text, String.raw`Folio platform fee \(4\.7% on agent payments\)`);
  assert.equal(sum(lines), subtotal);
  assert.equal(subtotal, subtotalCents);
  assert.equal(subtotal + fee, after(text, "Total"));
  assert.equal(after(text, "Total"), totalCents);
  assert.equal(after(text, "Amount due"), totalCents);
}

Deno.test("subscribing from the catalog bills the figure its page showed, not the later second's", async () => {
  await using folio = await testFolio();
  const buyer = await portalSignUp(folio, { name: "Quote AI" });
  const page = await buyer.visitor.get("/buyer/catalog/pub_demo");
  const texts = /data-first-charges="([^"]+)"/.exec(page.html);
  assert.ok(texts, "the page quotes each bundle's first charge");
  const shown = JSON.parse(texts[1].replaceAll("&quot;", '"'))["rag"] as string;
  const quotedAt = hidden(page.html, "quotedAt");
  folio.clock.set("2026-11-15T12:41:07Z");
  const done = await buyer.visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: hidden(page.html),
    useCases: "rag",
    quotedAt,
  });
  assert.equal(done.status, 200, done.html);
  const rs = await folio.store.db.execute("SELECT price_micros FROM charges");
  assert.equal(rs.rows.length, 1);
  assert.equal(formatUsd(microsToWholeCents(Number(rs.rows[0].price_micros))), shown);
  // 75 USD a month from 12:00:00, not from 12:41:07: 1,339,200 of November's 2,592,000 s.
  assert.equal(Number(rs.rows[0].price_micros), 38_750_000);

  // A quote from another month is refused on its field and bills nothing.
  const stale = await api(folio, buyer.apiKey, "/api/marketplace/licenses", {
    method: "POST",
    body: JSON.stringify({
      publisherId: "pub_demo",
      useCases: ["summarization"],
      quotedAt: "2026-10-31T23:30:00.000Z",
    }),
  });
  assert.deepEqual([stale.status, stale.body.error.param], [400, "quotedAt"]);
  assert.equal((await folio.store.db.execute("SELECT COUNT(*) AS n FROM charges")).rows[0].n, 1);
});
