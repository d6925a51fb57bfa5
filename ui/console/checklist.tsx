/** A getting-started checklist (both portals' overviews): shown until every step is done. */

/** One step of the checklist. */
export interface Step {
  label: string;
  done: boolean;
  href: string;
  hint: string;
}

/** The steps, with how many are done; nothing once all are. */
export function Checklist(props: { steps: Step[] }) {
  const pending = props.steps.filter((s) => !s.done).length;
  if (pending === 0) return null;
  return (
    <section class="card" aria-labelledby="steps-title">
      <h2 id="steps-title">
        Getting started: {props.steps.length - pending} of {props.steps.length} done
      </h2>
      <ul class="steps">
        {props.steps.map((s) => (
          <li key={s.label} class={s.done ? "done" : "todo"}>
            <a href={s.href}>{s.label}</a> <span class="muted small">{s.hint}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
