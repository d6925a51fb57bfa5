/** Long lists: a wide table's scrolling frame, and the pager of a list shown a page at a time. */
import type { ComponentChildren } from "preact";

/**
 * A wide table's horizontally scrollable, focusable region, named "`label` (table)": the section
 * around it is often named by a heading with the same words, and two landmarks may not share a
 * name (axe landmark-unique, issue 42).
 */
export function Scroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" role="region" aria-label={`${props.label} (table)`} tabIndex={0}>
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
