/** The portal kit's field errors (issue 34): an API error's param becomes a form field's label. */
import assert from "node:assert/strict";
import { formProblem } from "../server/pages/kit/field_errors.ts";

const MAP = {
  monthlyPriceUsdCents: {
    name: "monthlyPriceUsd",
    label: "Monthly price (USD)",
    plain: "enter an amount in dollars, such as 50 or 49.99",
    cents: true,
  },
  "match.territories": { name: "territories", label: "Readers' countries" },
};

Deno.test("a param the form has goes beside its field, under its label, in plain words", () => {
  assert.deepEqual(
    formProblem({
      problem: "monthlyPriceUsdCents: expected a number",
      param: "monthlyPriceUsdCents",
    }, MAP),
    {
      top: null,
      field: {
        name: "monthlyPriceUsd",
        message: "Monthly price (USD): enter an amount in dollars, such as 50 or 49.99",
      },
    },
  );
  // Bounds of a cents input are written in dollars.
  assert.equal(
    formProblem({
      problem: "monthlyPriceUsdCents: must be at most 100000",
      param: "monthlyPriceUsdCents",
    }, MAP)
      .field?.message,
    "Monthly price (USD): must be at most $1,000.00",
  );
  // An item of a list belongs to the list's field.
  assert.equal(
    formProblem({
      problem: "match.territories[1]: is not an ISO 3166-1 alpha-2 country code",
      param: "match.territories[1]",
    }, MAP).field?.name,
    "territories",
  );
});

Deno.test("a problem without a param, or with one the form lacks, stays at the top as the API said it", () => {
  assert.deepEqual(formProblem({ problem: "Rule was not found", param: null }, MAP), {
    top: "Rule was not found",
    field: null,
  });
  assert.deepEqual(formProblem({ problem: "other: is wrong", param: "other" }, MAP), {
    top: "other: is wrong",
    field: null,
  });
});
