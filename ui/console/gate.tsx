/**
 * The crawler gate (issue 33): configuration to copy for the publisher's own proxy (nginx, Caddy,
 * Traefik) with what each does when Folio is down, and the reverse-proxy mode for a publisher
 * without one. Choosing the fail-safe and the origin is a GET form: nothing is stored.
 */
import type { z } from "zod";
import type { gateConfigSchema } from "../../server/surfaces/manage/gate_schemas.ts";
import { ConsoleShell, CopyBlock, Messages, type Who } from "./shell.tsx";

/** GET /api/publisher/gate/config. */
export type GateConfig = z.output<typeof gateConfigSchema>;

/** What the gate page shows: the configuration, or why there is none yet. */
export interface GateProps {
  who: Who;
  config: GateConfig | null;
  whenDown: "refuse-crawlers" | "open";
  origin: string;
  problem: string | null;
}

/** GET /publisher/gate. */
export function GatePage(props: GateProps) {
  const c = props.config;
  return (
    <ConsoleShell who={props.who} section="gate" title="Crawler gate">
      <p class="muted">
        Keep your own site (WordPress, Ghost, a static site) and put Folio in front of it: people
        pass straight to your pages, AI crawlers pay per crawl (HTTP 402), paid reads pass with{" "}
        <code>crawler-charged</code>, blocked crawlers get 403. Folio takes the same decision,
        charge and call-log entry as on its own pages.
      </p>
      <Messages problem={props.problem} />
      <form method="get" action="/publisher/gate" class="card" aria-labelledby="choice-title">
        <h2 id="choice-title">Your proxy</h2>
        <fieldset>
          <legend>When Folio cannot be reached</legend>
          <label class="check">
            <input
              type="radio"
              name="whenDown"
              value="refuse-crawlers"
              checked={props.whenDown === "refuse-crawlers"}
            />{" "}
            Refuse known AI crawlers (503), let people through
          </label>
          <label class="check">
            <input type="radio" name="whenDown" value="open" checked={props.whenDown === "open"} />
            {" "}
            Let everyone through
          </label>
        </fieldset>
        <label for="gate-origin">Where your proxy reaches your site</label>
        <input id="gate-origin" name="origin" type="url" value={props.origin} />
        <p>
          <button type="submit">Show configuration</button>
        </p>
      </form>
      {c ? <Configs config={c} /> : null}
    </ConsoleShell>
  );
}

function Configs(props: { config: GateConfig }) {
  const c = props.config;
  const proxies = [
    ["nginx", "nginx (auth_request)", c.nginx],
    ["caddy", "Caddy (forward_auth)", c.caddy],
    ["traefik", "Traefik (ForwardAuth)", c.traefik],
  ] as const;
  return (
    <>
      {proxies.map(([id, title, p]) => (
        <section class="card" aria-labelledby={`${id}-title`} key={id}>
          <h2 id={`${id}-title`}>{title}</h2>
          <p>
            Save as <code>{p.file}</code> for {c.domain}.
          </p>
          <CopyBlock label={`${title} configuration`} value={p.config} />
          <p class="hint">{p.whenFolioDown}</p>
        </section>
      ))}
      <section class="card" aria-labelledby="rp-title">
        <h2 id="rp-title">No proxy of your own: reverse-proxy mode</h2>
        <p>
          {c.reverseProxy.enabled
            ? (
              <>
                On: Folio forwards admitted requests to <code>{c.reverseProxy.originUrl}</code>.
              </>
            )
            : "Off: Folio's own pages answer your domain."} Change it under{" "}
          <a href="/publisher/settings#access">Settings</a>.
        </p>
        <ol>
          {/* The API's first step names its own route; the page links the field instead. */}
          <li>
            Set <a href="/publisher/settings#origin-url">your site's origin</a>{" "}
            in Settings to where your site answers (such as{" "}
            <code>{c.originUrl}</code>), reachable from Folio on a public address.
          </li>
          {c.reverseProxy.steps.filter((s) => !s.includes("/api/")).map((s) => <li key={s}>{s}
          </li>)}
        </ol>
        <p class="hint">{c.reverseProxy.whenFolioDown}</p>
      </section>
    </>
  );
}
