/**
 * Configuration a publisher copies to put Folio's crawler gate in front of its own site
 * (docs/decisions/crawler-gate.md): nginx `auth_request`, Caddy `forward_auth`, Traefik
 * `ForwardAuth`, each with what it does when Folio cannot be reached. The management API serves
 * it for the publisher's domain; the tests run the nginx and Caddy text in real proxies.
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

function down(site: GateSite, proxy: string): string {
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

# A buyer's Folio key (Bearer mk_...) pays Folio: it is not the origin's to see.
map $http_authorization $folio_origin_authorization {
    default $http_authorization;
    "~*^Bearer\\s+mk_" "";
}

server {
    listen 80;
    server_name ${site.domain};

    # Folio's license terms for this site (RSL), linked from every 402 and 403.
    location = /license.xml {
        proxy_pass ${folio};
        proxy_set_header Host $host;
        proxy_ssl_server_name on;
    }

    location / {
        auth_request /_folio_gate;
        auth_request_set $folio_status $upstream_http_folio_status;
        auth_request_set $folio_message $upstream_http_folio_message;
        auth_request_set $folio_price $upstream_http_crawler_price;
        auth_request_set $folio_error $upstream_http_crawler_error;
        auth_request_set $folio_link $upstream_http_link;
        auth_request_set $folio_charged $upstream_http_crawler_charged;
        # A refusal (always 401 from /api/gate/v1/nginx) is answered by @folio_refused.
        error_page 401 = @folio_refused;
        # Folio unreachable or failing: the subrequest's error becomes 500 here.
        error_page 500 502 503 504 = @folio_down;
        add_header crawler-charged $folio_charged always;
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

/** Caddy: a site block (Caddyfile) with forward_auth; refusals reach the client as Folio answers. */
export function caddyConfig(site: GateSite): ProxyConfig {
  const folio = site.folioUrl.replace(/\/+$/, "");
  const origin = site.originUrl.replace(/\/+$/, "");
  const whenDown = site.whenDown === "open"
    ? ""
    : `		@crawler header_regexp User-Agent "(?i)${crawlerRegex()}"
		handle @crawler {
			header Retry-After 60
			respond "The crawler gate is unavailable: retry later." 503
		}
`;
  const config =
    `# Folio crawler gate for ${site.domain} (Caddyfile). People pass to the origin untouched; AI
# crawlers pay per crawl (402 from Folio, sent as is), paid reads pass with crawler-charged.
${site.domain} {
	# Folio's license terms for this site (RSL), linked from every 402 and 403.
	handle /license.xml {
		reverse_proxy ${folio} {
			header_up Host {host}
		}
	}
	handle {
		# In order as written (route): ask Folio, then pass to the origin.
		route {
			# forward_auth written out (as Caddy expands it) to put a paid read's crawler-charged on the
			# answer: a 2xx continues to the origin, any other answer is sent to the client as is.
			reverse_proxy ${folio} {
				method GET
				rewrite ${GATE_PATHS.forwardAuth}
				header_up Host {upstream_hostport}
				header_up X-Forwarded-Method {method}
				header_up X-Forwarded-Uri {uri}
				@paid {
					status 2xx
					header Crawler-Charged *
				}
				handle_response @paid {
					header Crawler-Charged {rp.header.Crawler-Charged}
				}
				@allowed status 2xx
				handle_response @allowed {
					header -Crawler-Charged
				}
			}
			# A buyer's Folio key (Bearer mk_...) pays Folio: it is not the origin's to see.
			@folio_key header_regexp Authorization "^Bearer +mk_"
			request_header @folio_key -Authorization
			reverse_proxy ${origin}
		}
	}
	# Folio unreachable (forward_auth failed): ${site.whenDown}.
	handle_errors {
${whenDown}		handle {
			reverse_proxy ${origin}
		}
	}
}
`;
  return { file: "Caddyfile", config, whenFolioDown: down(site, "Caddy") };
}

/**
 * Traefik (dynamic configuration, file provider): ForwardAuth on a router for requests that come
 * from an agent (a known crawler's User-Agent, a Web Bot Auth signature, a price header or a
 * bearer key); everyone else takes a router without the gate, so people never wait on Folio.
 */
export function traefikConfig(site: GateSite): ProxyConfig {
  const folio = site.folioUrl.replace(/\/+$/, "");
  const origin = site.originUrl.replace(/\/+$/, "");
  const host = `Host(\`${site.domain}\`)`;
  const agent = [
    `HeaderRegexp(\`User-Agent\`, \`(?i)${crawlerRegex()}\`)`,
    "HeaderRegexp(`Signature-Input`, `.`)",
    "HeaderRegexp(`Crawler-Exact-Price`, `.`)",
    "HeaderRegexp(`Crawler-Max-Price`, `.`)",
    "HeaderRegexp(`Authorization`, `(?i)^Bearer `)",
  ].join(" || ");
  const config =
    `# Folio crawler gate for ${site.domain} (Traefik v3 dynamic configuration, file provider).
# Agents go through ForwardAuth (402, 403 and refusals are sent as Folio answers them); people
# take the plain router. The paid read's crawler-charged reaches the origin as a request header
# (Traefik copies auth answer headers to the request only).
http:
  routers:
    folio-gate-agents:
      rule: "${host} && (${agent.replaceAll('"', '\\"')})"
      priority: 100
      middlewares: [folio-gate]
      service: publisher-origin
    folio-license:
      rule: "${host} && Path(\`/license.xml\`)"
      priority: 200
      service: folio
    publisher-site:
      rule: "${host}"
      priority: 1
      service: publisher-origin
  middlewares:
    folio-gate:
      forwardAuth:
        address: "${folio}${GATE_PATHS.forwardAuth}"
        trustForwardHeader: false
        authResponseHeaders: [Crawler-Charged]
  services:
    publisher-origin:
      loadBalancer:
        passHostHeader: true
        servers: [{ url: "${origin}" }]
    folio:
      loadBalancer:
        passHostHeader: true
        servers: [{ url: "${folio}" }]
`;
  const whenFolioDown = site.whenDown === "open"
    ? "Traefik's ForwardAuth has no fallback: when Folio is unreachable agents get 500 while people (the plain router) are not affected. To let agents through too, remove the folio-gate-agents router."
    : "When Folio is unreachable, ForwardAuth answers agents 500 (refused); people take the plain router and never wait on Folio.";
  return { file: "folio-gate.yml", config, whenFolioDown };
}
