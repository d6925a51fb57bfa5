/** Long lists: a wide table's scrolling frame, and the pager of a list shown a page at a time. */
import type { ComponentChildren } from "preact";

/** A horizontally scrollable, focusable region named `label`. */
export function Scroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}

/** Links to the previous and next page of a long list (`href` makes a page's link). */
export function Pager(
  props: { label: string; page: number; pages: number; href: (page: number) => string },
) {
  if (props.pages <= 1) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      {props.page > 1 ? <a href={props.href(props.page - 1)}>Previous</a> : null}
      <span>Page {props.page} of {props.pages}</span>
      {props.page < props.pages ? <a href={props.href(props.page + 1)}>Next</a> : null}
    </nav>
  );
}
