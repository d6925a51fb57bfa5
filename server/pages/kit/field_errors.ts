/**
 * A refused form's problem, put beside the field it is about (issue 34). The APIs name the input at
 * fault in `{error: {param}}` (server/platform/errors.ts) and start the message with it
 * (`monthlyUsdCents: expected a number`); each form maps the API's input paths to its own fields,
 * so the page shows the field's label and the rest of the message in plain words. A problem with no
 * field of the form stays at the top of the page.
 */
import { formatRate } from "../../platform/money.ts";
import type { FieldProblem } from "../../../ui/field_error.tsx";

/** The form field an API input comes from: its `name` on the page, its label, how to fill it. */
export interface FormField {
  name: string;
  label: string;
  /** Said instead of the API's words when the value has the wrong shape ("expected a number"). */
  plain?: string;
  /** The API takes US cents for this dollar field: bounds are written back in dollars. */
  cents?: boolean;
}

import type { LinkedWords } from "../../../ui/console/shell.tsx";

/** A form's fields by the API input path they fill (`param`, e.g. `branding.logoUrl`). */
export type FieldMap = Record<string, FormField>;

/** What a page shows of a refused form: at the top, or beside one field. */
export interface FormProblem {
  /** The problem for the top of the page (null when it is shown beside a field). */
  top: string | null;
  field: FieldProblem | null;
  /** The page's own words for `top`, with the page that fixes it (server/pages/buyer/refusals.ts). */
  linked?: LinkedWords | null;
}

/** No problem at all. */
export const NO_PROBLEM: FormProblem = { top: null, field: null };

/** The problem of a refused answer for a form whose inputs are `map`. */
export function formProblem(
  answer: { problem: string | null; param: string | null },
  map: FieldMap,
): FormProblem {
  const message = answer.problem ?? "The request failed";
  const param = answer.param;
  // An item of a list (`territories[1]`) belongs to the list's field.
  const known = param === null ? undefined : map[param] ?? map[param.replace(/\[\d+\].*$/, "")];
  if (!param || !known) return { top: message, field: null };
  const rest = message.startsWith(`${param}: `) ? message.slice(param.length + 2) : message;
  return {
    top: null,
    field: { name: known.name, message: `${known.label}: ${plainWords(rest, known)}` },
  };
}

/** A problem the page found itself, before asking the API (e.g. nothing ticked). */
export function fieldProblem(field: FormField, words: string): FormProblem {
  return { top: null, field: { name: field.name, message: `${field.label}: ${words}` } };
}

const SHAPE =
  /^(expected |has the wrong shape|is not a valid |must have at (least|most) \d+ items?$)/;
// An input's path (`action.window.start`) or camelCase name (`priceUsdCents`) in the API's words.
const API_PATH = /\b[a-z][A-Za-z]*\.[a-z][A-Za-z]*\b|\b[a-z]+[A-Z][A-Za-z]*\b/;
const BOUND = /^must be (at least|at most|more than|less than) (\d+(?:\.\d+)?)$/;

function plainWords(rest: string, f: FormField): string {
  // The form's own words when the API's name the value's type or another input's path.
  if (f.plain && (SHAPE.test(rest) || API_PATH.test(rest))) return f.plain;
  const bound = f.cents ? BOUND.exec(rest) : null;
  if (bound) return `must be ${bound[1]} ${formatRate(Number(bound[2]))}`;
  if (rest === "expected a number") return "enter a number";
  if (rest === "expected an integer") return "enter a whole number";
  return rest;
}
