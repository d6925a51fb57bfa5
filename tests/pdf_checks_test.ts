/** The page tree check before pdf.js reads a PDF (server/domain/catalog/pdf_checks.ts, issue 28). */
import assert from "node:assert/strict";
import { MAX_TREE_DEPTH, pageTreeTrap, precheck } from "../server/domain/catalog/pdf_checks.ts";
import { makePdf } from "./fixtures/pdf.ts";
import { cyclicTree, deepTree, sharedContentsBomb, sharedKidsBomb } from "./fixtures/pdf_bombs.ts";

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** Objects as a file's text: `n 0 obj ... endobj` for each body, object 1 first. */
function objects(...bodies: string[]): string {
  return bodies.map((b, i) => `${i + 1} 0 obj\n${b}\nendobj\n`).join("");
}

const PAGE = "<< /Type /Page /Parent 2 0 R >>";

Deno.test("well-formed page trees pass: flat, two levels, and redefined by an update", () => {
  assert.equal(pageTreeTrap(latin1(makePdf({ pages: [["a"], ["b"], ["c"]] })), 2000), null);
  const twoLevels = objects(
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 2 >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [7 0 R] /Count 1 >>",
    PAGE,
    PAGE,
    PAGE,
  );
  assert.equal(pageTreeTrap(twoLevels, 2000), null);
  // An incremental update appends a new version of node 4 with one more page: only it counts.
  const updated = twoLevels + "4 0 obj\n<< /Type /Pages /Parent 2 0 R /Kids [7 0 R 8 0 R] " +
    "/Count 2 >>\nendobj\n8 0 obj\n" + PAGE + "\nendobj\n";
  assert.equal(pageTreeTrap(updated, 2000), null);
  // An update that builds a new tree over the same pages leaves the old one unreached.
  const rebuilt = updated + "9 0 obj\n<< /Type /Pages /Kids [5 0 R 6 0 R 7 0 R 8 0 R] " +
    "/Count 4 >>\nendobj\n10 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\nendobj\n";
  assert.equal(pageTreeTrap(rebuilt, 2000), null);
  assert.equal(pageTreeTrap(rebuilt, 3), "its page tree lists 4 pages; the limit is 3");
  // No catalog or page tree in sight (object streams, noise): nothing to judge.
  assert.equal(pageTreeTrap("%PDF-1.7\n garbage", 2000), null);
});

Deno.test("a page tree that repeats a page, circles or sinks is caught before pdf.js reads it", async () => {
  assert.equal(
    pageTreeTrap(latin1(sharedKidsBomb(2000, 1024)), 2000),
    "its page tree lists object 4 2000 times; each page may appear once",
  );
  assert.equal(pageTreeTrap(latin1(cyclicTree()), 2000), "its page tree runs in a circle");
  assert.equal(pageTreeTrap(latin1(deepTree(MAX_TREE_DEPTH)), 2000), null);
  assert.equal(
    pageTreeTrap(latin1(deepTree(MAX_TREE_DEPTH + 1)), 2000),
    `its page tree is more than ${MAX_TREE_DEPTH} levels deep`,
  );
  // Pages counted by the kids listed, whatever /Count says.
  const many = objects(
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 1 >>",
    PAGE,
    PAGE,
    PAGE,
  );
  assert.equal(pageTreeTrap(many, 2), "its page tree lists 3 pages; the limit is 2");
  // Distinct pages sharing one content stream pass this check: the reader's limits stop them.
  const limits = { maxPages: 2000, maxInflated: 256 * 1024 * 1024 };
  assert.equal(await precheck(sharedContentsBomb(2000, 1024), limits), null);
  assert.match(String(await precheck(sharedKidsBomb(2000, 1024), limits)), /2000 times/);
});
