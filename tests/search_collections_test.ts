/**
 * The search evaluation's collections and verdicts (scripts/search_collections.ts,
 * scripts/fusion_candidates.ts, scripts/pseudo_queries.ts): any folder in the Cranfield format
 * loads, the collections built from it and from BBC-style articles hold out what they query by,
 * and issue 41's goals say NOT MET when a hybrid loses.
 */
import assert from "node:assert/strict";
import {
  bbcBriefs,
  bbcHeadlines,
  bbcLeads,
  collection,
  firstSentence,
  loadCranfieldFormat,
} from "../scripts/search_collections.ts";
import {
  combMax,
  deepScores,
  gapConfidence,
  goals,
  judgedApart,
  oracle,
  topOnly,
} from "../scripts/fusion_candidates.ts";
import { calibrate, pseudoQuery, UNCALIBRATED } from "../scripts/pseudo_queries.ts";
import { DEFAULT_FUSION } from "../search/fusion.ts";

const CRAN = `.I 1
.T
flow over a wedge
.A
smith
.W
the supersonic flow over a wedge
was measured .
.I 2
.T
heat transfer in boundary layers
.A
jones
.W
boundary layer heat transfer at high speed .
.I 3
.T
buckling of cylinders
.W
thin cylinders under axial load .
`;

async function cranfieldFolder(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "folio-cran-" });
  await Deno.writeTextFile(`${dir}/cran.all.1400`, CRAN);
  await Deno.writeTextFile(`${dir}/queries.train.tsv`, "1\twedge flow\n3\tcylinder buckling\n");
  await Deno.writeTextFile(
    `${dir}/qrels.train.tsv`,
    "query_id doc_id grade\n1 1 1\n1 2 -1\n3 3 2\n",
  );
  return dir;
}

Deno.test("a Cranfield-format folder loads with its fields, queries and judgements", async () => {
  const dir = await cranfieldFolder();
  try {
    const c = await loadCranfieldFormat(dir, "tiny");
    assert.deepEqual(c.docs.map((d) => d.id), ["1", "2", "3"]);
    assert.equal(c.docs[0].title, "flow over a wedge");
    assert.equal(c.docs[0].author, "smith");
    assert.equal(c.docs[0].body, "the supersonic flow over a wedge was measured .");
    assert.equal(c.docs[2].author, "");
    assert.deepEqual(c.queries, [["1", "wedge flow"], ["3", "cylinder buckling"]]);
    assert.deepEqual([...c.qrels["1"]], [["1", 1], ["2", -1]]);
    const half = await collection(
      `${dir}-half-titles`.replace(/-half-titles$/, "") + "-half-titles",
    );
    assert.deepEqual(half.docs.map((d) => d.body === ""), [false, true, false]);
    const titles = await collection(`${dir}-titles`);
    assert.equal(titles.name, `${dir.split("/").at(-1)}-titles`);
    assert.ok(titles.docs.every((d) => d.body === "" && d.title !== ""));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("other classic collections' markers end a field; CRLF files load as LF", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-cacm-" });
  try {
    const cacm = [
      ".I 1",
      ".T",
      "Preliminary Report-International Algebraic Language",
      ".W",
      "A report on the language.",
      ".B",
      "CACM December, 1958",
      ".A",
      "Perlis, A. J.",
      ".K",
      "algol, languages",
      ".N",
      "CA581203 JB March 22, 1978 8:28 PM",
      ".X",
      "100\t5\t1",
      ".I 2",
      ".T",
      "Extraction of Roots",
      ".N",
      "CA581202 JB",
      "",
    ].join("\r\n");
    await Deno.writeTextFile(`${dir}/cran.all.1400`, cacm);
    await Deno.writeTextFile(`${dir}/queries.train.tsv`, "1\tthe algebraic language\r\n");
    await Deno.writeTextFile(`${dir}/qrels.train.tsv`, "query_id doc_id grade\r\n1 1 1\r\n");
    const c = await loadCranfieldFormat(dir, "cacm");
    assert.deepEqual(c.docs, [
      {
        id: "1",
        title: "Preliminary Report-International Algebraic Language",
        author: "Perlis, A. J.",
        body: "A report on the language.",
      },
      { id: "2", title: "Extraction of Roots", author: "", body: "" },
    ]);
    assert.deepEqual(c.queries, [["1", "the algebraic language"]]);
    assert.deepEqual([...c.qrels["1"]], [["1", 1]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing collection folder fails with the path it looked for", async () => {
  await assert.rejects(() => collection("/nonexistent/folio-collection"), Deno.errors.NotFound);
});

Deno.test("a sentence ends at a full stop before a capital, not after Mr or in a decimal", () => {
  assert.deepEqual(
    firstSentence("Mr Blair said profits rose 3.5% to £1.2bn. Shares fell. Then more."),
    ["Mr Blair said profits rose 3.5% to £1.2bn.", "Shares fell. Then more."],
  );
  assert.deepEqual(firstSentence("no full stop here"), ["no full stop here", ""]);
  assert.deepEqual(firstSentence('He said "Yes." Then left.'), ['He said "Yes."', "Then left."]);
});

async function bbcFolder(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "folio-bbc-" });
  let n = 0;
  for (const topic of ["business", "entertainment", "politics", "sport", "tech"]) {
    await Deno.mkdir(`${dir}/${topic}`);
    for (let i = 1; i <= 3; i++) {
      n++;
      const text = `Headline number ${n} here\n\nLead sentence ${n} about topic ${topic}. ` +
        `More words of the first paragraph ${n}.\n\nMiddle paragraph ${n} goes on.\n\n` +
        `Closing remark ${n} from the desk. It ends.\n`;
      const bytes = topic === "sport" && i === 2
        ? Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)).concat([0xe9, 10])) // Latin-1 é
        : new TextEncoder().encode(text);
      await Deno.writeFile(`${dir}/${topic}/${String(i).padStart(3, "0")}.txt`, bytes);
    }
  }
  return dir;
}

Deno.test("the BBC known-item collections hold out what they ask by", async () => {
  const dir = await bbcFolder();
  try {
    const heads = await bbcHeadlines(dir);
    assert.equal(heads.docs.length, 15);
    assert.deepEqual(heads.queries, [["7", "Headline number 7 here"], [
      "14",
      "Headline number 14 here",
    ]]);
    assert.ok(heads.docs.every((d) => d.title === "" && !d.body.includes("Headline")));
    assert.deepEqual([...heads.qrels["7"]], [["7", 1]]);
    assert.ok(heads.docs[10].body.endsWith("é"), "the Latin-1 article decodes");

    const leads = await bbcLeads(dir);
    assert.deepEqual(leads.queries.map(([id]) => id), ["3", "10"]);
    assert.equal(leads.queries[0][1], "Lead sentence 3 about topic business.");
    const lead3 = leads.docs[2];
    assert.equal(lead3.title, "Headline number 3 here");
    assert.ok(lead3.body.startsWith("More words of the first paragraph 3."));
    assert.ok(!lead3.body.includes("Lead sentence"));

    const briefs = await bbcBriefs(dir);
    assert.deepEqual(briefs.queries, [["5", "Closing remark 5 from the desk."], [
      "12",
      "Closing remark 12 from the desk.",
    ]]);
    assert.equal(
      briefs.docs[4].body,
      "Lead sentence 5 about topic entertainment. More words of the first paragraph 5.",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the goals say NOT MET when the hybrid loses and met when it wins where legs disagree", () => {
  const n = 40;
  const fts = Array.from({ length: n }, (_, i) => 0.5 + (i % 5) * 0.05);
  const semantic = Array.from({ length: n }, (_, i) => 0.4 + (i % 3) * 0.05);
  const apart = Array.from({ length: n }, (_, i) => i % 2 === 0);
  const losing = fts.map((x, i) => x - 0.1 - (i % 4) * 0.02);
  const lost = goals(losing, { fts, semantic, bm25: fts }, apart);
  assert.deepEqual(lost.met, [false, false, false]);
  assert.match(lost.text, /better leg NOT MET/);
  const winning = fts.map((x, i) => x + 0.1 + (i % 4) * 0.02);
  assert.deepEqual(goals(winning, { fts, semantic, bm25: fts }, apart).met, [true, true, true]);
  const level = goals(fts, { fts, semantic, bm25: fts }, apart);
  assert.deepEqual(level.met, [true, true, false], "level with a leg is not above it");
});

Deno.test("judged disagreement is a gap in nDCG@10; the hindsight bound takes each query's better leg", () => {
  const fts = [0.9, 0.5, 0.2, 0.6];
  const semantic = [0.1, 0.45, 0.8, 0.6];
  assert.deepEqual(judgedApart(fts, semantic), [true, false, true, false]);
  assert.deepEqual([...oracle(fts, semantic)], [0.9, 0.5, 0.8, 0.6]);
  const n = 40;
  const a = Array.from({ length: n }, (_, i) => 0.5 + (i % 5) * 0.05);
  const b = Array.from({ length: n }, (_, i) => 0.4 + (i % 3) * 0.05);
  const every = Array.from({ length: n }, () => true);
  const winning = a.map((x, i) => x + 0.1 + (i % 4) * 0.02);
  const both = goals(winning, { fts: a, semantic: b, bm25: a }, every, every);
  assert.deepEqual(both.met, [true, true, true, true]);
  assert.match(both.text, /judged: met/);
  const none = every.map(() => false);
  assert.deepEqual(goals(winning, { fts: a, semantic: b, bm25: a }, every, none).met.at(-1), false);
});

Deno.test("CombMAX keeps a confident leg's top hit first; top-only fusion keeps every candidate", () => {
  const fts = [
    { articleId: "a", score: 10 },
    ...["b", "c", "d", "e"].map((id) => ({ articleId: id, score: 1 })),
  ];
  const semantic = ["x", "y", "b", "c"].map((id, i) => ({ articleId: id, score: 0.5 - i * 0.01 }));
  assert.equal(combMax(0.25)(fts, semantic)[0], "a");
  const ranked = topOnly(2)(fts, semantic);
  assert.equal(new Set(ranked).size, 7);
  assert.deepEqual(new Set(ranked.slice(0, 3)), new Set(["a", "x", "b"]));
  for (const fuse of [deepScores(2), gapConfidence(2)]) {
    const all = fuse(fts, semantic);
    assert.equal(new Set(all).size, 7);
    assert.deepEqual(new Set(all.slice(0, 4)), new Set(["a", "b", "x", "y"]), "the heads first");
  }
});

Deno.test("pseudo-queries ask by the title, or the first sentence when the title is short", async () => {
  const body = "Rates rose again in March. The central bank said inflation stayed above its " +
    "target for a third month running.";
  assert.deepEqual(pseudoQuery({ title: "Central bank raises rates", body }), {
    query: "Central bank raises rates",
    rest: body,
  });
  assert.deepEqual(pseudoQuery({ title: "Rates", body }), {
    query: "Rates rose again in March.",
    rest:
      "Rates\nThe central bank said inflation stayed above its target for a third month running.",
  });
  assert.equal(pseudoQuery({ title: "Rates", body: "Too short." }), null);
  const few = Array.from({ length: 10 }, (_, i) => ({ title: `Story ${i} about rates`, body }));
  const embed = (texts: string[]) => Promise.resolve(texts.map(() => new Float32Array([1, 0])));
  const cal = await calibrate(few, embed, { minSemanticScore: 0.2, fusion: DEFAULT_FUSION });
  assert.deepEqual(cal, UNCALIBRATED, "under 30 pseudo-queries the untuned weight stays");
});
