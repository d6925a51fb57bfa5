/**
 * The extraction evals' checks against plain Readability scored in the same run (eval_extract.ts,
 * eval_extract_bbc.ts): each measure at least Readability's, and no section lost.
 */
import type { SystemScore } from "../tests/fixtures/extraction_eval.ts";
import { check, type Checked, TARGETS } from "./targets.ts";

type Share = "title" | "author" | "date";

/** Folio's measures as ratios to Readability's, then its sections lost. */
export function againstReadability(
  folio: SystemScore,
  readability: SystemScore,
  shares: Share[],
): Checked[] {
  // A measure where Readability scores 0 is met by any score of Folio's.
  const ratio = (a: number, b: number) => b === 0 ? (a >= 0 ? 1 : 0) : Number((a / b).toFixed(3));
  return [
    ...shares.map((k) =>
      check(`${k} right`, ratio(folio[k], readability[k]), TARGETS.extractVsReadability)
    ),
    check(
      "body F1 mean",
      ratio(folio.bodyF1Mean, readability.bodyF1Mean),
      TARGETS.extractVsReadability,
    ),
    check(
      "body F1 min",
      ratio(folio.bodyF1Min, readability.bodyF1Min),
      TARGETS.extractVsReadability,
    ),
    check("sections lost", folio.sectionsLost, TARGETS.extractSectionsLost),
  ];
}
