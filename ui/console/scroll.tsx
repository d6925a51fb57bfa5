/** A wide table's frame: it scrolls sideways on narrow screens, and keyboards can scroll it too. */
import type { ComponentChildren } from "preact";

/** A horizontally scrollable, focusable region named `label`. */
export function Scroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}
