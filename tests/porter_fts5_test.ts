/**
 * search/porter.ts against SQLite FTS5's own `porter` tokenizer (issue 30): every word of the demo
 * catalog, of Cranfield when it is present (../shared/data/cranfield), and of a list of hard cases
 * is indexed one per row with the tokenizer the store declares (store/migrations/0002_search.sql),
 * and the term fts5vocab reports must be porterStem() of the word, as `commonWords()` assumes.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { porterStem } from "../search/porter.ts";
import { words } from "../search/text.ts";

const HARD = [
  // FTS5's step 2 departures from Porter (1980), and words the old stemmer got wrong.
  "technology",
  "analogies",
  "terminology",
  "possibly",
  "flexibly",
  "negligibly",
  "assembly",
  // y as a vowel or consonant; *o; ll; ion after s or t; eed.
  "syzygy",
  "yearly",
  "sayed",
  "toying",
  "crying",
  "hopping",
  "hoping",
  "filing",
  "falling",
  "controlling",
  "rolling",
  "agreed",
  "feed",
  "bleed",
  "succeed",
  "adoption",
  "opinion",
  "vision",
  "generalizations",
  "oscillators",
  "triplicate",
  "hopefulness",
  "electricity",
  "rationality",
  "sensitivity",
  "formality",
  "capabilities",
  "relational",
  "conditional",
  "valency",
  "digitizer",
  "radically",
  "differently",
  "vilely",
  "analogously",
  "sized",
  "tanned",
  "ties",
  "caress",
  "ponies",
  // Digits and mixed tokens, short and long tokens, non-ASCII letters after folding.
  "50degrees",
  "24s",
  "b747s",
  "3d",
  "abc",
  "ab",
  "a",
  "sss",
  "ies",
  "eed",
  "ying",
  "x".repeat(64) + "s",
  "x".repeat(63) + "s",
  "naïve",
  "Ångströms",
  "αλφαβητικές",
  "ﬁles",
  "straße",
  "cafés",
  "ŝipoj",
  "日本語",
  "ıing",
];

async function ftsTerms(tokenize: string, list: string[]): Promise<Map<number, string[]>> {
  const db = createClient({ url: ":memory:" });
  try {
    await db.execute(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = ${tokenize})`);
    await db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
    for (let i = 0; i < list.length; i += 500) {
      const batch = list.slice(i, i + 500);
      await db.execute({
        sql: `INSERT INTO t (rowid, x) VALUES ${batch.map(() => "(?, ?)").join(",")}`,
        args: batch.flatMap((w, j) => [i + j + 1, w]),
      });
    }
    const rs = await db.execute("SELECT doc, term FROM v ORDER BY doc, offset");
    const out = new Map<number, string[]>();
    for (const r of rs.rows) {
      const doc = Number(r.doc);
      out.set(doc, [...out.get(doc) ?? [], String(r.term)]);
    }
    return out;
  } finally {
    db.close();
  }
}

async function vocabulary(): Promise<string[]> {
  const texts = [
    await Deno.readTextFile(new URL("../server/seed/demo_catalog.json", import.meta.url)),
  ];
  try {
    texts.push(
      await Deno.readTextFile(
        new URL("../../shared/data/cranfield/cran.all.1400", import.meta.url),
      ),
    );
  } catch { /* Cranfield is optional here; the demo catalog and the hard cases always run */ }
  return [...new Set([...texts.flatMap((t) => words(t)), ...HARD.flatMap((w) => words(w))])];
}

Deno.test("porterStem() gives the term FTS5's porter tokenizer indexes, word for word", async () => {
  const migration = await Deno.readTextFile(
    new URL("../store/migrations/0002_search.sql", import.meta.url),
  );
  const tokenize = /tokenize = ('[^']+')/.exec(migration)![1];
  const list = await vocabulary();
  assert.ok(list.length > 3000, `${list.length} words`);
  const fts = await ftsTerms(tokenize, list);
  const differ = list.flatMap((w, i) => {
    const theirs = fts.get(i + 1);
    return theirs?.length === 1 && theirs[0] === porterStem(w)
      ? []
      : [`${w}: ours ${porterStem(w)}, FTS5 ${theirs?.join(" ")}`];
  });
  assert.deepEqual(differ, []);
});
