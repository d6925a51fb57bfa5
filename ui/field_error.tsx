/**
 * A refused form's problem beside its field (issue 34): the field gets `aria-invalid` and an
 * `aria-describedby` naming the error text, so a screen reader reads the problem with the field
 * (WAI-ARIA 1.2, aria-invalid; WCAG 2.2, 3.3.1 Error Identification).
 */

/** A problem that belongs to one form field, named by the field's `name`. */
export interface FieldProblem {
  name: string;
  /** "Monthly price (USD): enter an amount in dollars, such as 50 or 49.99". */
  message: string;
}

/** The id of a field's error text. */
export function errorId(name: string): string {
  return `${name.replace(/[^A-Za-z0-9_-]/g, "-")}-error`;
}

/** The attributes of field `name`: invalid and described by its error when it has the problem. */
export function invalidIf(
  problem: FieldProblem | null | undefined,
  name: string,
  hint?: string,
): { "aria-invalid"?: "true"; "aria-describedby"?: string } {
  if (problem?.name !== name) return hint ? { "aria-describedby": hint } : {};
  return {
    "aria-invalid": "true",
    "aria-describedby": [errorId(name), hint].filter(Boolean).join(" "),
  };
}

/** The error text of field `name`, if the problem is its. */
export function FieldError(props: { problem: FieldProblem | null | undefined; name: string }) {
  if (props.problem?.name !== props.name) return null;
  return (
    <p class="problem field-error" id={errorId(props.name)} role="alert">{props.problem.message}</p>
  );
}
