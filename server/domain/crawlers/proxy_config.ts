/**
 * Configuration a publisher copies to put Folio's crawler gate in front of its own site
 * (docs/decisions/crawler-gate.md): nginx `auth_request`, Caddy `forward_auth`, Traefik
 * `ForwardAuth`, each with what it does when Folio cannot be reached. The management API serves
 * it for the publisher's domain; the tests run the nginx and Caddy text in real proxies. Caddy
 * and Traefik are in proxy_config_forward_auth.ts.
 */
import { crawlerPatterns } from "./crawlers.ts";

/** What a proxy does when Folio does not answer: everyone through, or known crawlers refused. */
export type WhenDown = "open" | "refuse-crawlers";
export const WHEN_DOWN: readonly WhenDown[] = ["open", "refuse-crawlers"];

/** The site the configuration is for. */
export interface GateSite {
  /** The publisher's verified domain, as clients name it. */
  domain: string;
  /** Folio as the proxy reaches it (scheme, host, port; no path). */
  folioUrl: string;
  /** The publisher's origin as the proxy reaches it. */
  originUrl: string;
  whenDown: WhenDown;
}

/** One proxy's configuration and what it does when Folio is down. */
export interface ProxyConfig {
  file: string;
  config: string;
  whenFolioDown: string;
}

/** The forward-auth endpoints (server/surfaces/landing/gate_routes.ts). */
export const GATE_PATHS = { nginx: "/api/gate/v1/nginx", forwardAuth: "/api/gate/v1/forward-auth" };

/** Statuses the gate refuses with that nginx answers itself (`return` takes no variable). */
const NGINX_STATUSES = [400, 401, 402, 404, 413, 429, 451, 500];

/** A case-insensitive alternation of the known crawlers' User-Agent patterns. */
export function crawlerRegex(): string {
  return `(${crawlerPatterns().join("|")})`;
}

/** The sentence saying what `proxy` does when Folio is down. */
export function down(site: GateSite, proxy: string): string {
  return site.whenDown === "open"
    ? `When Folio is unreachable, ${proxy} passes every request to the origin: people and crawlers read free until it is back.`
    : `When Folio is unreachable, ${proxy} answers known AI crawlers (by User-Agent) 503 with Retry-After and passes everyone else to the origin.`;
}

/** nginx: a conf.d file (http context) with the map, and the site's server block. */
export function nginxConfig(site: GateSite): ProxyConfig {
  const folio = site.folioUrl.replace(/\/+$/, "");
  const origin = site.originUrl.replace(/\/+$/, "");
  const refusals = NGINX_STATUSES.map((s) =>
    `        if ($folio_status = ${s}) { return ${s} "$folio_message\\n"; }`
  ).join("\n");
  const whenDown = site.whenDown === "open" ? "" : `        if ($folio_known_crawler) {
            add_header Retry-After 60 always;
            return 503 "The crawler gate is unavailable: retry later.\\n";
        }
`;
  const config =
    `# Folio crawler gate for ${site.domain}: put this file in /etc/nginx/conf.d/ (http context).
# Every request is asked of Folio first (auth_request); people pass to the origin untouched,
# AI crawlers pay per crawl (402), paid reads pass with crawler-charged, blocked ones get 403.
map $http_user_agent $folio_known_crawler {
    default 0;
    "~*${crawlerRegex()}" 1;
}

# A buyer's Folio key (Bearer mk_...) or RSL license token (License ...) pays Folio: it is not
# the origin's to see.
map $http_authorization $folio_origin_authorization {
    default $http_authorization;
    "~*^Bearer\\s+mk_" "";
    "~*^License\\b" "";
}

server {
    listen 80;
    server_name ${site.domain};

    # Folio's license terms for this site (RSL), linked from every 402 and 403.
    location = /license.xml {
        proxy_pass ${folio};
        proxy_set_header Host $host;
        proxy_ssl_server_name on;
        proxy_connect_timeout 2s;
        # Folio unreachable: a clear 503, never the origin's page or nginx's HTML 502 as a license.
        error_page 500 502 503 504 = @folio_license_down;
    }

    location @folio_license_down {
        default_type text/plain;
        add_header Retry-After 60 always;
        add_header Cache-Control no-store always;
        return 503 "The license server is unavailable: retry later.\n";
    }

    location / {
        auth_request /_folio_gate;
        auth_request_set $folio_status $upstream_http_folio_status;
        auth_request_set $folio_message $upstream_http_folio_message;
        auth_request_set $folio_price $upstream_http_crawler_price;
        auth_request_set $folio_error $upstream_http_crawler_error;
        auth_request_set $folio_link $upstream_http_link;
        auth_request_set $folio_charged $upstream_http_crawler_charged;
        auth_request_set $folio_receipt $upstream_http_folio_receipt;
        # x402 (docs/decisions/x402.md): what to pay on a 402, the settlement of a paid read.
        auth_request_set $folio_payment_required $upstream_http_payment_required;
        auth_request_set $folio_payment_response $upstream_http_payment_response;
        # A refusal (always 401 from /api/gate/v1/nginx) is answered by @folio_refused.
        error_page 401 = @folio_refused;
        # Folio unreachable or failing: the subrequest's error becomes 500 here.
        error_page 500 502 503 504 = @folio_down;
        add_header crawler-charged $folio_charged always;
        add_header Folio-Receipt $folio_receipt always;
        add_header PAYMENT-RESPONSE $folio_payment_response always;
        proxy_pass ${origin};
        proxy_set_header Host $host;
        proxy_set_header Authorization $folio_origin_authorization;
    }

    location = /_folio_gate {
        internal;
        proxy_pass ${folio}${GATE_PATHS.nginx};
        proxy_pass_request_body off;
        proxy_set_header Content-Length "";
        proxy_set_header X-Original-Method $request_method;
        proxy_set_header X-Original-URI $request_uri;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_ssl_server_name on;
        proxy_connect_timeout 2s;
        proxy_read_timeout 5s;
    }

    location @folio_refused {
        default_type text/plain;
        add_header crawler-price $folio_price always;
        add_header crawler-error $folio_error always;
        add_header Link $folio_link always;
        add_header PAYMENT-REQUIRED $folio_payment_required always;
        add_header Cache-Control no-store always;
${refusals}
        return 403 "$folio_message\\n";
    }

    location @folio_down {
${whenDown}        proxy_pass ${origin};
        proxy_set_header Host $host;
    }
}
`;
  return { file: "folio-gate.conf", config, whenFolioDown: down(site, "nginx") };
}
