/**
 * robots.txt conformance: every case of tests/fixtures/robots_cases.ts (written from RFC 9309)
 * answered by Folio's rules and by the bare robots-parser package, in one run.
 * Run: deno run -A scripts/eval_robots.ts
 */
import robotsParserModule from "robots-parser";
import { parseRobots } from "../server/domain/catalog/robots_rules.ts";
import { ROBOTS_CASES } from "../tests/fixtures/robots_cases.ts";
import { check, line, tally, TARGETS } from "./targets.ts";

type Bare = (url: string, body: string) => { isAllowed(url: string, ua?: string): boolean };
const bare = robotsParserModule as unknown as Bare;
const ORIGIN = "https://x.example";

const rows = new Map<string, { cases: number; folio: number; bare: number }>();
const bareMisses: string[] = [];
for (const k of ROBOTS_CASES) {
  const row = rows.get(k.section) ?? { cases: 0, folio: 0, bare: 0 };
  rows.set(k.section, row);
  row.cases++;
  const url = `${ORIGIN}${k.path}`;
  if (parseRobots(k.robots).isAllowed(url, k.token) === k.allowed) row.folio++;
  const plain = bare(`${ORIGIN}/robots.txt`, k.robots).isAllowed(url, k.token ?? "FolioBot");
  if ((plain !== false) === k.allowed) row.bare++;
  else bareMisses.push(`§${k.section} ${k.name}`);
}
const total = { cases: 0, folio: 0, bare: 0 };
console.log("| RFC 9309 section | cases | Folio | robots-parser 3.0.1 |");
console.log("| --- | ---: | ---: | ---: |");
for (const [section, r] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`| ${section} | ${r.cases} | ${r.folio} | ${r.bare} |`);
  total.cases += r.cases;
  total.folio += r.folio;
  total.bare += r.bare;
}
console.log(`| all | ${total.cases} | ${total.folio} | ${total.bare} |`);
console.log(`\nrobots-parser alone misses:\n${bareMisses.map((m) => `- ${m}`).join("\n")}`);
// robots-parser's column is the baseline; Folio's is judged.
const answered = check(
  "Folio's answers as RFC 9309 says",
  total.folio / total.cases,
  TARGETS.robotsCases,
);
console.log(
  `\n${line(answered, `${total.folio} of ${total.cases} (robots-parser ${total.bare})`)}`,
);
console.log(tally([answered]));
