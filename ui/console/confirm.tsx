/**
 * A confirmation step before an action that cannot be undone (rotating a key or a secret,
 * deleting an endpoint): what will happen, in words, then one form that does it and a way back.
 * A page of its own, so it works without JavaScript (issue 34).
 */
import type { ComponentChildren } from "preact";
import { CsrfField } from "./shell.tsx";

/** What the confirmation says and where its form posts. */
export interface ConfirmProps {
  /** The card's heading, e.g. "Rotate the API key?". */
  heading: string;
  /** What happens, one or more paragraphs. */
  children: ComponentChildren;
  action: string;
  button: string;
  cancelHref: string;
  csrfToken: string;
}

/** The confirmation card. */
export function Confirm(props: ConfirmProps) {
  return (
    <section class="card confirm" aria-labelledby="confirm-title">
      <h2 id="confirm-title">{props.heading}</h2>
      {props.children}
      <form method="post" action={props.action} class="row">
        <CsrfField token={props.csrfToken} />
        <button type="submit" class="danger">{props.button}</button>
        <a class="button secondary" href={props.cancelHref}>Cancel</a>
      </form>
    </section>
  );
}
