/**
 * Caddy and Traefik configuration for the crawler gate (forward authentication to
 * /api/gate/v1/forward-auth); nginx and the shared parts are in proxy_config.ts.
 */
import { crawlerRegex, down, GATE_PATHS, type GateSite, type ProxyConfig } from "./proxy_config.ts";

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
					header Folio-Receipt {rp.header.Folio-Receipt}
					header Payment-Response {rp.header.Payment-Response}
				}
				@allowed status 2xx
				handle_response @allowed {
					header -Crawler-Charged
					header -Folio-Receipt
					header -Payment-Response
				}
			}
			# A buyer's Folio key (Bearer mk_...) or license token (License ...) pays Folio: it is not
			# the origin's to see.
			@folio_key header_regexp Authorization "^(?i)(Bearer +mk_|License )"
			request_header @folio_key -Authorization
			reverse_proxy ${origin}
		}
	}
	# Folio unreachable (forward_auth failed): ${site.whenDown}.
	handle_errors {
		# Never the origin's /license.xml in Folio's place: a crawler would take it as the license.
		handle /license.xml {
			header Retry-After 60
			header Cache-Control no-store
			respond "The license server is unavailable: retry later." 503
		}
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
    "HeaderRegexp(`Payment-Signature`, `.`)",
    "HeaderRegexp(`Authorization`, `(?i)^(Bearer|License) `)",
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
        authResponseHeaders: [Crawler-Charged, Folio-Receipt, Payment-Response]
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
