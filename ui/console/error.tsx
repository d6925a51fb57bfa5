/** The console's error page: what went wrong, in words, and a way back. */
import { Page } from "../layout.tsx";
import { CONSOLE_CSS } from "./style.ts";

/** Any console page that could not be shown. */
export function ConsoleErrorPage(props: { status: number; message: string }) {
  const title = props.status === 404 ? "Not found" : "Something went wrong";
  return (
    <Page title={`${title} · Folio`} css={CONSOLE_CSS}>
      <main class="auth">
        <h1>{title}</h1>
        <p class="problem" role="alert">{props.message}</p>
        <p>
          <a href="/publisher">Back to the console</a>
        </p>
      </main>
    </Page>
  );
}
