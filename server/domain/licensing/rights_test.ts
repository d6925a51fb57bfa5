import assert from "node:assert/strict";
import {
  heldRights,
  mayHoldAny,
  publicRights,
  purchasable,
  rightOf,
  rightsWords,
  withdrawnUses,
} from "./rights.ts";
import type { Rights } from "./types.ts";

const DEFAULTS: Rights = { summarization: true, display: false, rag: false, fine_tuning: false };
const NONE = { licensedUses: [] };

Deno.test("rightOf: the default grants everyone, a license its holder, the ceiling caps both", () => {
  assert.deepStrictEqual(rightOf("summarization", DEFAULTS, NONE, null), "default");
  assert.deepStrictEqual(rightOf("rag", DEFAULTS, NONE, null), "none");
  assert.deepStrictEqual(rightOf("rag", DEFAULTS, { licensedUses: ["rag"] }, null), "license");
  const ceiling = { ...DEFAULTS, summarization: false, rag: false };
  assert.deepStrictEqual(rightOf("rag", DEFAULTS, { licensedUses: ["rag"] }, ceiling), "none");
  assert.deepStrictEqual(rightOf("summarization", DEFAULTS, NONE, ceiling), "none");
});

Deno.test("heldRights and publicRights agree for a caller holding nothing", () => {
  assert.deepStrictEqual(heldRights(DEFAULTS, NONE, null), publicRights(DEFAULTS));
  assert.deepStrictEqual(publicRights(DEFAULTS), DEFAULTS);
  assert.deepStrictEqual(heldRights(DEFAULTS, { licensedUses: ["display", "fine_tuning"] }, null), {
    ...DEFAULTS,
    display: true,
    fine_tuning: true,
  });
});

Deno.test("fine_tuning granted by default is granted to everyone", () => {
  const on = { ...DEFAULTS, fine_tuning: true };
  assert.deepStrictEqual(rightsWords(publicRights(on)).fine_tuning, "granted");
  assert.deepStrictEqual(heldRights(on, NONE, null).fine_tuning, true);
});

Deno.test("only default-granted uses are for sale; fine_tuning never is", () => {
  assert.deepStrictEqual(purchasable(DEFAULTS), ["summarization"]);
  assert.deepStrictEqual(purchasable({ ...DEFAULTS, display: true, fine_tuning: true }), [
    "summarization",
    "display",
  ]);
});

Deno.test("mayHoldAny: a rag licensee may search a catalog whose default denies rag", () => {
  assert.deepStrictEqual(mayHoldAny("rag", DEFAULTS, NONE), false);
  assert.deepStrictEqual(mayHoldAny("rag", DEFAULTS, { licensedUses: ["rag"] }), true);
});

Deno.test("withdrawnUses names the uses granted before and denied after", () => {
  assert.deepStrictEqual(withdrawnUses({ ...DEFAULTS, display: true }, DEFAULTS), ["display"]);
  assert.deepStrictEqual(withdrawnUses(DEFAULTS, { ...DEFAULTS, rag: true }), []);
});
