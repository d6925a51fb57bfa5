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
