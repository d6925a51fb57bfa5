/** Either portal's error page: what went wrong, in words, and a way back to the portal. */
import { Page } from "../layout.tsx";
import { CONSOLE_CSS } from "./style.ts";

/** Any portal page that could not be shown; `home` is the portal's start page. */
export function ConsoleErrorPage(
  props: { status: number; message: string; home?: string; homeLabel?: string },
) {
  const title = props.status === 404 ? "Not found" : "Something went wrong";
  return (
    <Page title={`${title} · Folio`} css={CONSOLE_CSS} landmarks="own">
      <main class="auth" id="main">
        <h1>{title}</h1>
        <p class="problem" role="alert">{props.message}</p>
        <p>
          <a href={props.home ?? "/publisher"}>{props.homeLabel ?? "Back to the console"}</a>
        </p>
      </main>
    </Page>
  );
}

/**
 * A form the API refused for its security token: what happened, that nothing changed, what to do,
 * and the way back to the form (`back`).
 */
export function FormExpiredPage(props: { back: string; home: string }) {
  return (
    <Page title="This form has expired · Folio" css={CONSOLE_CSS} landmarks="own">
      <main class="auth" id="main">
        <h1>This form has expired</h1>
        <p class="problem" role="alert">
          Nothing was changed: Folio could not tell that the form came from your signed-in page.
        </p>
        <p>
          This happens when the page was opened before you last signed in or out (in this tab or
          another), or when the form was sent from somewhere else.
        </p>
        <p>
          Open the form again, check what you entered, and send it once more.
        </p>
        <p>
          <a href={props.back}>Back to the form</a>
          {props.back === props.home ? null : (
            <>
              {" · "}
              <a href={props.home}>Start page</a>
            </>
          )}
        </p>
      </main>
    </Page>
  );
}
