import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import type { ContentRule } from "../../../store/vocabulary.ts";
import { RSL_CONTENT_TYPE, RSL_NAMESPACE, rslDocument, type RslInput } from "./rsl.ts";

const INPUT: RslInput = {
  publisherName: "Daily News",
  origin: "https://news.example",
  termsUrl: "https://folio.example/license/pub_1",
  licenseServer: "https://folio.example/buyer",
  rights: { summarization: true, display: true, rag: true, fine_tuning: false },
  pricesMicros: { summarization: 1_000, display: 50_000, rag: 2_000 },
  crawl: { why: "charge", priceMicros: 50_000 },
  platformFeeBps: 470,
  rules: [],
};

type El = {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  children: ArrayLike<El>;
};

/** Parse with linkedom (lenient) after a strict well-formedness check of our own. */
function parse(xml: string): El {
  assertWellFormed(xml);
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  return doc.documentElement as unknown as El;
}

function kids(node: El, name?: string): El[] {
  return Array.from(node.children).filter((c) => name === undefined || c.tagName === name);
}

/** linkedom hands attribute values back with &, < and > escaped again. */
function attr(node: El, name: string): string | null {
  const v = node.getAttribute(name);
  return v === null ? null : v.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function contents(root: El): Map<string, El> {
  return new Map(kids(root, "content").map((c) => [attr(c, "url")!, c]));
}

function licenseBy(content: El, paymentType: string | null): El | undefined {
  return kids(content, "license").find((l) =>
    (kids(l, "payment")[0]?.getAttribute("type") ?? null) === paymentType
  );
}

function usage(license: El, element: "permits" | "prohibits", type = "usage"): string[] {
  return kids(license, element)
    .filter((e) => e.getAttribute("type") === type)
    .flatMap((e) => e.textContent!.split(" "));
}

/**
 * XML 1.0 well-formedness for what the generator can write: one declaration, comments without
 * "--", balanced elements, quoted attributes without "<" or a bare "&", text without "<" or a
 * bare "&". linkedom accepts broken XML, so this is what catches a missing escape.
 */
function assertWellFormed(xml: string): void {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'), "declaration first");
  const ref = "&(?:amp|lt|gt|quot|apos|#[0-9]+);";
  const attrValue = `"(?:[^"<&]|${ref})*"`;
  const tag = new RegExp(
    `^<(/?)([A-Za-z][A-Za-z0-9._-]*)((?:\\s+[A-Za-z][A-Za-z0-9._:-]*=${attrValue})*)\\s*(/?)>`,
  );
  const text = new RegExp(`^(?:[^<&]|${ref})+`);
  let rest = xml.slice(xml.indexOf("\n") + 1);
  const stack: string[] = [];
  let roots = 0;
  while (rest.length) {
    if (rest.startsWith("<!--")) {
      const end = rest.indexOf("-->");
      assert.ok(end > 0, "comment closed");
      const body = rest.slice(4, end);
      assert.ok(!body.includes("--") && !body.endsWith("-"), `comment body: ${body}`);
      rest = rest.slice(end + 3);
      continue;
    }
    const t = tag.exec(rest);
    if (t) {
      const [whole, close, name, , selfClose] = t;
      if (close) assert.deepEqual(stack.pop(), name, "balanced");
      else if (!selfClose) {
        if (stack.length === 0) roots++;
        stack.push(name);
      } else if (stack.length === 0) roots++;
      rest = rest.slice(whole.length);
      continue;
    }
    const m = text.exec(rest);
    assert.ok(m, `not well-formed at: ${rest.slice(0, 60)}`);
    if (stack.length === 0) assert.deepEqual(m[0].trim(), "", "only whitespace outside the root");
    rest = rest.slice(m[0].length);
  }
  assert.deepEqual(stack, [], "every element closed");
  assert.deepEqual(roots, 1, "one root element");
}

Deno.test("rslDocument: one <rsl> in the RSL namespace covering the origin, served as application/rsl+xml", () => {
  assert.deepEqual(RSL_CONTENT_TYPE, "application/rsl+xml");
  const root = parse(rslDocument(INPUT));
  assert.deepEqual(root.tagName, "rsl");
  assert.deepEqual(root.getAttribute("xmlns"), RSL_NAMESPACE);
  assert.deepEqual(RSL_NAMESPACE, "https://rslstandard.org/rsl");
  const site = contents(root).get("https://news.example/")!;
  assert.ok(site, "a <content> for the origin");
  assert.deepEqual(kids(site).map((e) => e.tagName), [
    "license",
    "license",
    "license",
    "copyright",
    "terms",
  ]);
  assert.deepEqual(kids(site, "terms")[0].textContent, INPUT.termsUrl);
  assert.deepEqual(kids(site, "copyright")[0].textContent, "Daily News");
  assert.deepEqual(kids(site, "copyright")[0].getAttribute("type"), "organization");
  // No content@server unless a license server is given (documents.ts gives Folio's OLP server).
  assert.deepEqual(site.getAttribute("server"), null);
  const served = parse(rslDocument({ ...INPUT, olpServer: "https://folio.example/api/olp" }));
  for (const content of contents(served).values()) {
    assert.equal(content.getAttribute("server"), "https://folio.example/api/olp");
  }
});

Deno.test("rslDocument: a trailing slash on the origin is not doubled", () => {
  const root = parse(rslDocument({ ...INPUT, origin: "https://news.example/" }));
  assert.deepEqual([...contents(root).keys()], ["https://news.example/"]);
});

Deno.test("rslDocument: the per-crawl price includes the 4.7% fee, to the micro-dollar", () => {
  const site = contents(parse(rslDocument(INPUT))).get("https://news.example/")!;
  const crawl = licenseBy(site, "crawl")!;
  const amount = kids(kids(crawl, "payment")[0], "amount")[0];
  assert.deepEqual(amount.getAttribute("currency"), "USD");
  // 50,000 + 2,350 fee = 52,350 micros.
  assert.deepEqual(amount.textContent, "0.05235");
  assert.deepEqual(kids(kids(crawl, "payment")[0], "custom")[0].textContent, INPUT.termsUrl);

  const odd = contents(
    parse(rslDocument({ ...INPUT, crawl: { why: "charge", priceMicros: 12_345 } })),
  )
    .get("https://news.example/")!;
  const oddAmount = kids(kids(licenseBy(odd, "crawl")!, "payment")[0], "amount")[0];
  // 12,345 + 580 (580.215 rounded half-up) = 12,925 micros.
  assert.deepEqual(oddAmount.textContent, "0.012925");
});

Deno.test("rslDocument: refuses a fee other than money.ts's", () => {
  assert.throws(() => rslDocument({ ...INPUT, platformFeeBps: 500 }), /470 bps/);
});

Deno.test("rslDocument: rights become RSL usage; denied fine_tuning prohibits ai-train", () => {
  const site = contents(parse(rslDocument(INPUT))).get("https://news.example/")!;
  for (const type of ["crawl", "subscription"]) {
    const license = licenseBy(site, type)!;
    assert.deepEqual(usage(license, "permits"), ["ai-input", "ai-index", "search"], type);
    assert.deepEqual(usage(license, "prohibits"), ["ai-train"], type);
  }
  // The subscription is taken out at the marketplace.
  const subscription = kids(licenseBy(site, "subscription")!, "payment")[0];
  assert.deepEqual(kids(subscription, "custom")[0].textContent, INPUT.licenseServer);
  // Training only through an approved license request at the marketplace.
  const training = licenseBy(site, "training")!;
  assert.deepEqual(usage(training, "permits"), ["ai-train"]);
  assert.deepEqual(
    kids(kids(training, "payment")[0], "custom")[0].textContent,
    INPUT.licenseServer,
  );
  assert.deepEqual(kids(training, "legal")[0].getAttribute("type"), "contact");
});

Deno.test("rslDocument: rag denied leaves ai-index and search prohibited; fine_tuning granted to all is permitted", () => {
  const rights = { summarization: true, display: false, rag: false, fine_tuning: true };
  const site = contents(parse(rslDocument({ ...INPUT, rights }))).get("https://news.example/")!;
  const crawl = licenseBy(site, "crawl")!;
  // The rights table grants fine_tuning to every reader when the publisher's default does.
  assert.deepEqual(usage(crawl, "permits"), ["ai-input", "ai-train"]);
  assert.deepEqual(usage(crawl, "prohibits"), ["ai-index", "search"]);
  assert.deepEqual(usage(licenseBy(site, "training")!, "permits"), ["ai-train"]);
});

Deno.test("rslDocument: no AI rights at all offers nothing to buy but training on request", () => {
  const rights = { summarization: false, display: false, rag: false, fine_tuning: false };
  const site = contents(parse(rslDocument({ ...INPUT, rights }))).get("https://news.example/")!;
  const licenses = kids(site, "license");
  assert.deepEqual(licenses.length, 2);
  assert.deepEqual(usage(licenses[0], "prohibits"), ["ai-input", "ai-index", "search", "ai-train"]);
  assert.deepEqual(kids(licenses[0], "payment"), []);
  assert.deepEqual(licenseBy(site, "training") !== undefined, true);
});

Deno.test("rslDocument: hostile publisher names and urls are escaped and survive a round trip", () => {
  const hostile = `Evil & Co <script>alert("x")</script> 'quoted' ]]> --> <!--`;
  const url = `https://folio.example/buyer?a=1&b="2"<x>'y'`;
  const xml = rslDocument({
    ...INPUT,
    publisherName: hostile + "\u0000\u0008",
    termsUrl: url,
    licenseServer: url + "\r\n</legal>",
    origin: `https://news.example/"><evil a="`,
  });
  assert.ok(!xml.includes("<script>"));
  assert.ok(!xml.includes("<evil"));
  const root = parse(xml);
  const [site] = kids(root, "content");
  assert.deepEqual(kids(site, "copyright")[0].textContent, hostile);
  assert.deepEqual(kids(site, "terms")[0].textContent, url);
  assert.deepEqual(
    kids(licenseBy(site, "training")!, "legal")[0].textContent,
    url + "\r\n</legal>",
  );
  assert.deepEqual(attr(site, "url"), `https://news.example/"><evil a="/`);
});

const rule = (r: Partial<ContentRule> & Pick<ContentRule, "id">): ContentRule => ({
  priority: 10,
  match: {},
  action: {},
  ...r,
});

Deno.test("rslDocument: path rules become <content> blocks in Folio's order", () => {
  const rules: ContentRule[] = [
    rule({
      id: "r_premium",
      priority: 10,
      match: { path: "/premium/" },
      action: { policy: "PAYWALL", priceMicros: 100_000 },
    }),
    rule({ id: "r_free", priority: 20, match: { path: "/free/" }, action: { policy: "OBSERVE" } }),
    rule({
      id: "r_blocked",
      priority: 30,
      match: { path: "/20*/opinion/*.html" },
      action: { policy: "BLOCKED" },
    }),
    // Shadowed by r_premium, which evaluates first: /premium/free/ stays paid at r_premium's price.
    rule({
      id: "r_shadow",
      priority: 40,
      match: { path: "/premium/free/" },
      action: { policy: "OBSERVE" },
    }),
    rule({
      id: "r_price",
      priority: 50,
      match: { path: "/sport/" },
      action: { priceMicros: 10_000 },
    }),
  ];
  const blocks = contents(parse(rslDocument({ ...INPUT, rules })));
  assert.deepEqual([...blocks.keys()], [
    "https://news.example/",
    "https://news.example/premium/",
    "https://news.example/free/",
    "https://news.example/20*/opinion/*.html$",
    "https://news.example/premium/free/",
    "https://news.example/sport/",
  ]);
  const amountAt = (url: string) => {
    const crawl = licenseBy(blocks.get(url)!, "crawl");
    return crawl && kids(kids(crawl, "payment")[0], "amount")[0].textContent;
  };
  assert.deepEqual(amountAt("https://news.example/premium/"), "0.1047"); // 100,000 + 4,700
  assert.deepEqual(amountAt("https://news.example/premium/free/"), "0.1047");
  assert.deepEqual(amountAt("https://news.example/sport/"), "0.01047"); // 10,000 + 470
  // A crawler charged by default pays on OBSERVE content too: termsOf() escalates it to PAYWALL at
  // the crawler price (50,000 + 2,350); a crawler that is not charged reads it free.
  assert.deepEqual(amountAt("https://news.example/free/"), "0.05235");
  const allowed = contents(parse(rslDocument({ ...INPUT, rules, crawl: null })));
  const free = allowed.get("https://news.example/free/")!;
  assert.ok(licenseBy(free, "crawl") === undefined, "no crawl payment on free content");
  assert.deepEqual(usage(licenseBy(free, "free")!, "permits"), ["ai-input", "ai-index", "search"]);
  assert.deepEqual(usage(licenseBy(free, "free")!, "prohibits"), ["ai-train"]);
  const blocked = blocks.get("https://news.example/20*/opinion/*.html$")!;
  assert.deepEqual(kids(blocked, "license").length, 1);
  assert.deepEqual(usage(kids(blocked, "license")[0], "prohibits"), ["ai-all"]);
});

Deno.test("rslDocument: territory denials become geo prohibitions; what RSL cannot say is noted", () => {
  const rules: ContentRule[] = [
    rule({ id: "r_geo", match: { territories: ["ru", "CN"] }, action: { deny: true } }),
    rule({
      id: "r_geo_path",
      match: { path: "/uk/", territories: ["US"] },
      action: { deny: true },
    }),
    rule({ id: "r_embargo", match: { publishedWithinHours: 24 }, action: { policy: "BLOCKED" } }),
    rule({ id: "r_local", match: { territories: ["FR"] }, action: { policy: "OBSERVE" } }),
    rule({
      id: "r_window",
      match: { path: "/events/" },
      action: {
        priceMicros: 1,
        window: { start: "2030-01-01T00:00:00Z", end: "2030-02-01T00:00:00Z" },
      },
    }),
    rule({ id: "r_bad", match: { path: "/x$" }, action: { policy: "BLOCKED" } }),
  ];
  const xml = rslDocument({ ...INPUT, rules });
  const blocks = contents(parse(xml));
  assert.deepEqual([...blocks.keys()], ["https://news.example/", "https://news.example/uk/"]);
  const site = blocks.get("https://news.example/")!;
  for (const license of kids(site, "license")) {
    assert.deepEqual(usage(license, "prohibits", "geo"), ["CN", "RU"]);
  }
  const uk = blocks.get("https://news.example/uk/")!;
  assert.deepEqual(usage(licenseBy(uk, "crawl")!, "prohibits", "geo"), ["CN", "RU", "US"]);
  for (const id of ["r_embargo", "r_local", "r_window", "r_bad"]) {
    assert.ok(xml.includes(`Not expressed in RSL: `) && xml.includes(id), id);
  }
});

Deno.test("rslDocument: a denial to every reader prohibits all use on its path", () => {
  const rules = [rule({ id: "r_all", match: { path: "/private/" }, action: { deny: true } })];
  const blocks = contents(parse(rslDocument({ ...INPUT, rules })));
  const priv = blocks.get("https://news.example/private/")!;
  assert.deepEqual(kids(priv, "license").length, 1);
  assert.deepEqual(usage(kids(priv, "license")[0], "prohibits"), ["all"]);
});

Deno.test("rslDocument: with paywalled paths, the rest of the site is free and those paths are paid", () => {
  const rules = [
    rule({ id: "r_cheap", match: { path: "/premium/sale/" }, action: { priceMicros: 20_000 } }),
    rule({
      id: "r_cheap2",
      priority: 20,
      match: { path: "/blog/" },
      action: { priceMicros: 20_000 },
    }),
  ];
  const blocks = contents(parse(rslDocument({
    ...INPUT,
    rules,
    crawl: null,
    articles: [{ path: "/premium/", policy: "PAYWALL", priceMicros: null }],
  })));
  const site = blocks.get("https://news.example/")!;
  assert.deepEqual(licenseBy(site, "crawl"), undefined);
  assert.ok(licenseBy(site, "free"));
  const amount = (url: string) =>
    kids(kids(licenseBy(blocks.get(url)!, "crawl")!, "payment")[0], "amount")[0].textContent;
  assert.deepEqual(amount("https://news.example/premium/"), "0.05235");
  assert.deepEqual(amount("https://news.example/premium/sale/"), "0.02094"); // 20,000 + 940
  // A price alone does not paywall free content.
  assert.ok(licenseBy(blocks.get("https://news.example/blog/")!, "free"));
});
