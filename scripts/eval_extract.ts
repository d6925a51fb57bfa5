/**
 * Extraction quality on tests/fixtures/extraction/ (hand-written pages with gold title, author,
 * date and body): Folio against plain Readability with its metadata, in the same run.
 * Run: deno task eval:extract [--pages]   (--pages also lists every page's misses)
 */
import {
  folioReading,
  loadFixtures,
  readabilityReading,
  score,
  type SystemScore,
} from "../tests/fixtures/extraction_eval.ts";

const fixtures = await loadFixtures();
const folio = score(fixtures, folioReading);
const readability = score(fixtures, readabilityReading);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const row = (name: string, s: SystemScore) =>
  `| ${name} | ${pct(s.title)} | ${pct(s.author)} | ${pct(s.date)} | ${s.bodyF1Mean.toFixed(3)} | ${
    s.bodyF1Min.toFixed(3)
  } |`;
console.log(`${fixtures.length} pages\n`);
console.log("| system | title | author | date | body F1 mean | body F1 min |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
console.log(row("Folio", folio));
console.log(row("Readability 0.6.0", readability));
if (Deno.args.includes("--pages")) {
  for (const [name, s] of [["Folio", folio], ["Readability", readability]] as const) {
    console.log(`\n${name} misses:`);
    for (const p of s.pages) {
      const miss = (["title", "author", "date"] as const).filter((k) => !p[k])
        .map((k) => `${k}=${JSON.stringify(k === "date" ? p.got.date : p.got[k])}`);
      if (miss.length || p.bodyF1 < 0.9) {
        console.log(`  ${p.name}: ${miss.join(" ")} body F1 ${p.bodyF1.toFixed(3)}`);
      }
    }
  }
}
