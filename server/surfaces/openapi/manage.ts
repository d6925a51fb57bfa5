/**
 * The publisher management API's part of the OpenAPI document (docs/DESIGN.md §6): the dashboard's
 * own API, `/api/publishers` accounts and `/api/publisher`, from the zod schemas its routes parse
 * with (server/surfaces/manage/schemas.ts) and the shapes of its answers (server/surfaces/manage/openapi_schemas.ts).
 */
import { z } from "zod";
import { POLICIES } from "../../../store/vocabulary.ts";
import { URL_STATES } from "../../../store/sources.ts";
import * as lifecycle from "../manage/ingest_schemas.ts";
import * as io from "../manage/openapi_schemas.ts";
import * as payouts from "../manage/payout_schemas.ts";
import * as payees from "../manage/payee_schemas.ts";
import * as disputes from "../../domain/billing/dispute_schemas.ts";
import { itemQuerySchema } from "../../domain/billing/items.ts";
import {
  articlePatchSchema,
  crawlersSchema,
  domainVerifyResponseSchema,
  licenseApprovalSchema,
  licenseDenialSchema,
  loginSchema,
  managedArticleSchema,
  passwordChangeSchema,
  playgroundPassagesSchema,
  ruleInputSchema,
  ruleOrderSchema,
  rulePatchSchema,
  ruleSchema,
  settingsPatchSchema,
  settingsResponseSchema,
  signupSchema,
} from "../manage/schemas.ts";
import {
  type Api,
  MONTH_PARAM,
  type Operation,
  pathParam,
  query,
  queryParamsOf,
  schemaOf,
} from "./kit.ts";
import { webhookPaths } from "./webhooks.ts";
import { passwordResetPaths } from "./password_reset.ts";
import { analyticsPaths } from "./manage_analytics.ts";
import { catalogPaths } from "./manage_catalog.ts";
import { gateConfigSchema } from "../manage/gate_schemas.ts";

const ITEM_PARAMS = queryParamsOf(itemQuerySchema);

const ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field and the problem, and `param` the field",
  401: "Missing or invalid publisher key or session",
  403: "Cookie-authenticated change without a matching X-CSRF-Token",
  404: "Not found (or another publisher's)",
  409: "Conflicts with existing data",
  413: "Body too large",
  415: "Unsupported media type (or a file that is not what it claims to be)",
  422: "The file could not be processed within the limits (e.g. a hostile PDF)",
  429: "Too many attempts from this address; see Retry-After",
};

const COUNTRY = { type: "string", pattern: "^[A-Za-z]{2}$", description: "ISO 3166-1 alpha-2" };

/** The management API. */
export function manageApi(): Api {
  const id = pathParam("id");
  const authed = (o: Omit<Operation, "auth">): Operation => ({ ...o, auth: true });
  return {
    tag: "Publisher management",
    description: "The publisher console's own API: settings, sources and jobs, books, content " +
      "rules, articles, calls, intents, license requests, earnings. Authenticate with the " +
      "publisher key (`Authorization: Bearer pk_...`) or the console session cookie from " +
      "POST /api/publishers/login plus its X-CSRF-Token on changes. Unknown fields are refused.",
    auth: {
      security: [{ publisherKey: [] }, { publisherSession: [], csrf: [] }],
      errors: [401, 403],
    },
    errors: ERRORS,
    errorSchema: "Error",
    paths: {
      ...analyticsPaths(authed),
      ...catalogPaths(authed),
      "/api/publishers/signup": {
        post: {
          summary: "Create a publisher account",
          description: "Returns the publisher key (pk_) once; only its hash is stored. " +
            "Rate-limited per client address.",
          body: signupSchema,
          example: {
            name: "Harbor Gazette",
            slug: "harbor-gazette",
            email: "editor@harbor.example",
            password: "a long passphrase",
          },
          ok: [201, io.signupResponseSchema, "Created"],
          errors: [400, 409, 413, 415, 429],
        },
      },
      "/api/publishers/login": {
        post: {
          summary: "Sign in to the dashboard",
          description: "Sets the folio_session cookie (HttpOnly, SameSite=Lax, Secure on https). " +
            "Send csrfToken as X-CSRF-Token on every cookie-authenticated change. Attempts are " +
            "limited per client address, and wrong passwords slow further attempts from that " +
            "address for that email (429 with Retry-After); other addresses are not affected.",
          body: loginSchema,
          example: { email: "editor@harbor.example", password: "a long passphrase" },
          ok: [200, io.loginResponseSchema],
          errors: [400, 401, 413, 415, 429],
        },
      },
      ...Object.fromEntries(
        Object.entries(passwordResetPaths("publisher console user"))
          .map(([p, ops]) => [`/api/publishers${p}`, ops]),
      ),
      "/api/publishers/logout": {
        post: { summary: "End the dashboard session", ok: [204, null, "Signed out"] },
      },
      "/api/publisher/session": {
        get: authed({
          summary: "Who is signed in",
          description: "With a dashboard session, also the CSRF token its changes must send in " +
            "X-CSRF-Token; with a publisher key, via is key and the session fields are null.",
          ok: [200, io.sessionSchema],
        }),
      },
      "/api/publisher/analytics": {
        get: authed({
          summary: "Activity per day: calls by surface, reads, earnings, top reader intents",
          description:
            "days is 1 to 90 (default 30); days are UTC. month holds the totals of the " +
            "current statement month. reads are successful get_article calls on any surface.",
          params: [{
            name: "days",
            in: "query",
            required: false,
            schema: { type: "integer", minimum: 1, maximum: 90, default: 30 },
          }],
          ok: [200, io.analyticsSchema],
          errors: [400],
        }),
      },
      "/api/publisher/settings": {
        get: authed({
          summary: "Read the publisher's settings and the URLs of its surfaces",
          ok: [200, settingsResponseSchema],
        }),
        patch: authed({
          summary: "Change settings",
          description:
            'Merges: {"toggles": {"publicRest": true}} changes one toggle and nothing else.',
          body: settingsPatchSchema,
          example: { toggles: { publicRest: true } },
          ok: [200, settingsResponseSchema],
          errors: [400, 409, 413, 415],
        }),
      },
      "/api/publisher/domain/verify": {
        post: authed({
          summary: "Check the custom domain's proof now",
          description: "A new customDomain is pending and does not route until Folio finds the " +
            "TXT record domain.dnsRecord or the token domain.httpToken (fetched over http, " +
            "redirects followed). Verified, it routes, and other publishers' pending claims on " +
            "it are released. Still pending, domain.message says what was found. Pending claims " +
            "are also re-checked hourly. At most 30 checks an hour.",
          ok: [200, domainVerifyResponseSchema],
          errors: [409, 429],
        }),
      },
      "/api/publisher/crawlers": {
        get: authed({
          summary: "The crawlers Folio recognises, and what the publisher does with each",
          description: "Training and search crawlers and user-initiated fetchers by User-Agent " +
            "(a maintained list kept as data). `action` is the publisher's setting, its default " +
            "for the class, or `reader` (served like a person) for user fetchers by default.",
          ok: [200, crawlersSchema],
        }),
      },
      "/api/publisher/gate/config": {
        get: authed({
          summary: "Configuration for the crawler gate in front of the publisher's own site",
          description: "For the verified custom domain: nginx (auth_request to " +
            "/api/gate/v1/nginx), Caddy and Traefik (forward auth to /api/gate/v1/forward-auth) " +
            "configuration to copy, each with what it does when Folio is unreachable " +
            "(`whenDown`: `refuse-crawlers` answers known AI crawlers 503 and passes people, " +
            "`open` passes everyone), and the reverse-proxy setting (`originUrl`) for a " +
            "publisher with no proxy. `origin` is where the proxy reaches the site (default: " +
            "the originUrl setting). 409 without a verified domain.",
          params: [
            query("whenDown", {
              type: "string",
              enum: ["refuse-crawlers", "open"],
              default: "refuse-crawlers",
            }),
            query("origin", { type: "string", format: "uri" }),
          ],
          ok: [200, gateConfigSchema],
          errors: [400, 409],
        }),
      },
      "/api/publisher/rules": {
        get: authed({
          summary: "List content rules in evaluation order",
          ok: [200, io.ruleListSchema],
        }),
        post: authed({
          summary: "Add a content rule",
          description: "Lower priority first; the first match sets policy/price; denials stack. " +
            "deny needs match.territories; window needs priceUsdCents.",
          body: ruleInputSchema,
          example: {
            name: "Premium section",
            priority: 10,
            match: { path: "/premium/" },
            action: { policy: "PAYWALL", priceUsdCents: 5 },
          },
          ok: [201, z.object({ rule: ruleSchema }), "Created"],
          errors: [400, 409],
        }),
      },
      "/api/publisher/rules/{id}": {
        patch: authed({
          summary: "Change a content rule",
          description: "Each part given (priority, match, action) replaces that part.",
          params: [id],
          body: rulePatchSchema,
          ok: [200, z.object({ rule: ruleSchema })],
          errors: [400, 404],
        }),
        delete: authed({
          summary: "Delete a content rule",
          params: [id],
          ok: [204, null, "Deleted"],
          errors: [404],
        }),
      },
      "/api/publisher/articles": {
        get: authed({
          summary: "List articles, most recently published first",
          description: "Each article carries `effective`: the policy and display price a read " +
            "gets now after content rules (for a reader from `country`, or of unknown country, " +
            "whom no territory rule matches) and what decided them. `policy` filters on the " +
            "effective policy, `storedPolicy` on the article's own.",
          params: [
            query("limit", { type: "integer", minimum: 1, maximum: 200, default: 50 }),
            query("offset", { type: "integer", minimum: 0, default: 0 }),
            query("policy", { type: "string", enum: [...POLICIES] }),
            query("storedPolicy", { type: "string", enum: [...POLICIES] }),
            query("kind", { type: "string", enum: ["article", "chapter"] }),
            query("published", { type: "string", enum: ["true", "false"] }),
            query("country", COUNTRY),
            query("q", {
              type: "string",
              maxLength: 200,
              description: "Words all in the title or URL",
            }),
          ],
          ok: [200, io.articlePageSchema],
          errors: [400],
        }),
      },
      "/api/publisher/articles/{id}": {
        patch: authed({
          summary: "Set an article's policy and/or price override",
          description: "priceUsdCents: null removes the override (the publisher price applies).",
          params: [id],
          body: articlePatchSchema,
          example: { policy: "PAYWALL", priceUsdCents: 3 },
          ok: [200, z.object({ article: managedArticleSchema })],
          errors: [400, 404],
        }),
      },
      "/api/publisher/intents": {
        get: authed({
          summary: "The last 100 reader intents, and who asked",
          ok: [200, io.intentListSchema],
        }),
      },
      "/api/publisher/coverage": {
        get: authed({ summary: "Embedding coverage", ok: [200, io.coverageSchema] }),
      },
      "/api/publisher/sources": {
        post: authed({
          summary: "Upload a CSV of article URLs (optional title column, at most 20 MB)",
          body: {
            "text/csv": { schema: { type: "string" } },
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: { file: { type: "string", contentMediaType: "text/csv" } },
                required: ["file"],
              },
            },
          },
          description: "Starts a drain job for the upload's new URLs (named in the answer); a " +
            "re-upload of the same file answers 200 with the upload's latest job.",
          ok: [201, io.sourceResponseSchema, "Accepted URLs queued for ingestion"],
          also: [[200, io.sourceResponseSchema, "The same file again: the upload's latest job"]],
          errors: [400, 413, 415],
        }),
        get: authed({
          summary: "Uploaded sources and URL counts by state",
          ok: [200, io.sourceListSchema],
        }),
      },
      "/api/publisher/sources/urls": {
        get: authed({
          summary: "The per-URL ingestion report (up to 1,000 rows)",
          description: "Each row: state, reason, article id once ingested, the job that owns or " +
            "last processed it, and the last attempt time. Filters combine.",
          params: [
            query("state", { enum: [...URL_STATES] }),
            query("sourceId", { type: "string" }),
            query("jobId", { type: "string" }),
          ],
          ok: [200, io.sourceUrlListSchema],
          errors: [400],
        }),
      },
      "/api/publisher/jobs": {
        post: authed({
          summary: "Start an ingestion job",
          body: io.jobInputSchema,
          ok: [202, io.jobQueuedSchema, "Queued"],
          errors: [400, 413, 415],
        }),
        get: authed({ summary: "The last 50 ingestion jobs", ok: [200, io.jobListSchema] }),
      },
      "/api/publisher/jobs/{id}": {
        get: authed({
          summary: "An ingestion job",
          params: [id],
          ok: [200, io.jobSchema],
          errors: [404],
        }),
      },
      "/api/publisher/sites": {
        post: authed({
          summary: "Add a site: its articles are found in its sitemaps and feeds",
          description: "Starts the site's first sync (named in the answer): the Sitemap lines of " +
            "its robots.txt (else /sitemap.xml), sitemap indexes, gzip and Google News " +
            "sitemaps, and the RSS/Atom feeds its page links; each at most 50,000 URLs and " +
            "50 MB uncompressed, robots.txt obeyed. The site is then synced daily (or every " +
            "syncEveryHours). 409 when " +
            "the site was already added.",
          body: lifecycle.siteInputSchema,
          ok: [201, lifecycle.siteAddedSchema, "Added; its first sync is queued"],
          errors: [400, 409, 413, 415],
        }),
        get: authed({
          summary: "The publisher's sites, their URLs by state and latest job",
          ok: [200, lifecycle.siteListSchema],
        }),
      },
      "/api/publisher/sites/{id}": {
        get: authed({
          summary: "A site",
          description: "Remove a site with DELETE /api/publisher/sources/{id}; its URLs are " +
            "reported by GET /api/publisher/sources/urls?sourceId={id}.",
          params: [id],
          ok: [200, lifecycle.siteSchema],
          errors: [404],
        }),
        patch: authed({
          summary: "Change how often a site is synced",
          params: [id],
          body: lifecycle.sitePatchSchema,
          ok: [200, lifecycle.siteSchema],
          errors: [400, 404, 413, 415],
        }),
      },
      "/api/publisher/sites/{id}/sync": {
        post: authed({
          summary: "Sync a site now",
          description: "Queues a sync job (or answers the one already queued or running): new " +
            "pages are ingested, changed ones re-fetched with conditional requests (ETag, " +
            "Last-Modified; a sitemap lastmod no later than our last fetch skips the request), " +
            "and pages that answer 404 or 410 are unpublished.",
          params: [id],
          ok: [202, lifecycle.siteSyncSchema, "Queued"],
          errors: [404],
        }),
      },
      "/api/publisher/books": {
        post: authed({
          summary: "Upload a book; each chapter becomes an article",
          body: { "multipart/form-data": { schema: schemaOf(io.bookUploadSchema, "input") } },
          ok: [201, io.bookResponseSchema, "Created"],
          errors: [400, 413, 415, 422],
        }),
        get: authed({ summary: "The publisher's books", ok: [200, io.bookListSchema] }),
      },
      // The ingestion lifecycle (issue 11): cancel, retry, removal, book detail and deletion.
      "/api/publisher/jobs/{id}/cancel": {
        post: authed({
          summary: "Cancel a queued or running job",
          description:
            "The job finishes as CANCELLED with the reason; its run stops at once; the " +
            "URLs it still had queued become cancelled (retry them with POST .../retry). " +
            "The body is optional.",
          params: [id],
          body: lifecycle.cancelInputSchema,
          bodyOptional: true,
          ok: [200, lifecycle.cancelResponseSchema],
          errors: [400, 404, 409, 413, 415],
        }),
      },
      "/api/publisher/jobs/{id}/retry": {
        post: authed({
          summary: "Retry a finished job's failed and cancelled URLs",
          description: "Queues them again under a new drain job, named in the answer. 409 while " +
            "the job is active or when it has nothing to retry.",
          params: [id],
          ok: [202, lifecycle.retryResponseSchema, "Queued"],
          errors: [404, 409],
        }),
      },
      "/api/publisher/sources/{id}": {
        delete: authed({
          summary: "Remove an upload and the URLs it added",
          description: "Cancels the upload's active jobs first. Articles already ingested stay " +
            "published (articlesKept counts them).",
          params: [id],
          ok: [200, lifecycle.sourceRemovalSchema],
          errors: [404],
        }),
      },
      "/api/publisher/sources/{id}/retry": {
        post: authed({
          summary: "Retry an upload's failed and cancelled URLs",
          description: "Queues them again under a new drain job, named in the answer; URLs an " +
            "active job owns are left to it. 409 when there is nothing to retry.",
          params: [id],
          ok: [202, lifecycle.retryResponseSchema, "Queued"],
          errors: [404, 409],
        }),
      },
      "/api/publisher/sources/urls/remove": {
        post: authed({
          summary: "Remove listed URLs (at most 1,000)",
          description: "A running job skips them. Articles already ingested stay published.",
          body: lifecycle.removeUrlsInputSchema,
          ok: [200, lifecycle.urlRemovalSchema],
          errors: [400, 413, 415],
        }),
      },
      "/api/publisher/books/{id}": {
        get: authed({
          summary: "A book with its chapters",
          params: [id],
          ok: [200, lifecycle.bookDetailSchema],
          errors: [404],
        }),
        delete: authed({
          summary: "Delete a book",
          description: "Its chapters leave search and every listing; charges, the call log and " +
            "statements keep their rows.",
          params: [id],
          ok: [200, lifecycle.bookRemovalSchema],
          errors: [404],
        }),
      },
      "/api/publisher/license-requests": {
        get: authed({
          summary: "License requests from agents, newest first",
          description: "Each says who asked (requester, and the buyer billed), the rights asked, " +
            "and the decision: when, the monthly price and term, or the reason of a denial.",
          params: [query("state", { type: "string", enum: ["pending", "approved", "denied"] })],
          ok: [200, io.licenseRequestListSchema],
          errors: [400],
        }),
      },
      "/api/publisher/license-requests/{id}/approve": {
        post: authed({
          summary: "Approve a license request with an offer to its buyer",
          description: "Makes an offer the buyer accepts or declines (GET /api/marketplace/" +
            "offers); nothing is billed before acceptance. The body is optional. " +
            "monthlyPriceUsdCents: the monthly price (default: the enterprise terms' price, or " +
            "free), at most the request's maxMonthlyUsdCents (400 otherwise); termMonths: " +
            "calendar months it runs, the acceptance's included (default: until canceled); " +
            "expiresInDays: days the buyer has to accept (default 14); note: words to the buyer. " +
            "409 already_decided once decided, buyer_required while the requester is not " +
            "linked to a buyer.",
          params: [id],
          body: licenseApprovalSchema,
          bodyOptional: true,
          ok: [200, io.licenseApprovalResponseSchema],
          errors: [400, 404, 409, 413, 415],
        }),
      },
      "/api/publisher/license-requests/{id}/deny": {
        post: authed({
          summary: "Deny a license request",
          description: "The body is optional; a reason is recorded and shown with the request.",
          params: [id],
          body: licenseDenialSchema,
          bodyOptional: true,
          ok: [200, z.object({ request: io.licenseRequestSchema })],
          errors: [400, 404, 409, 413, 415],
        }),
      },
      "/api/publisher/earnings": {
        get: authed({
          summary: "Earnings from metered reads and licenses",
          params: [query("months", { type: "integer", minimum: 1, maximum: 36, default: 12 })],
          ok: [200, io.earningsSchema],
          errors: [400],
        }),
      },
      "/api/publisher/payouts": {
        get: authed({
          summary: "The month's payout statement",
          description: "What buyers were billed for your content on that month's statements: " +
            "per-read earnings (metered reads, agent payments) and license fees apart, platform " +
            "fees apart, the net you are paid (your own prices) and the payout's state. Each " +
            "line's itemsUrl lists its items; they add up to it to the micro-dollar.",
          params: [MONTH_PARAM],
          ok: [200, payouts.payoutStatementSchema],
          errors: [400],
        }),
      },
      "/api/publisher/payee": {
        get: authed({
          summary: "Where your payouts go (masked)",
          description: "Legal name, country, currency and the account, masked to its last four. " +
            "null until given: payouts are held until then.",
          ok: [200, payees.payeeAnswerSchema],
        }),
        put: authed({
          summary: "Set where your payouts go",
          description: "An IBAN (checksum and the country's format checked; BIC optional), a US " +
            "account with its ABA routing number, or a payment provider's email. Stored " +
            "encrypted; answers show it masked. Replaces what was there; the change is audited.",
          body: payees.payeeInputSchema,
          example: {
            legalName: "Example Media GmbH",
            country: "DE",
            currency: "EUR",
            method: "iban",
            iban: "DE89 3704 0044 0532 0130 00",
          },
          ok: [200, payees.payeeAnswerSchema],
          errors: [400, 413, 415],
        }),
      },
      "/api/publisher/payouts/history": {
        get: authed({
          summary: "Your payouts: state, amount, holds, date paid and reference",
          description: "Newest month first. held (with each hold's reason), due (in the next " +
            "batch), approved (in a batch, being paid), paid (with the date and the transfer's " +
            "reference). Amounts are your share of what buyers paid (docs/decisions/billing.md).",
          ok: [200, payees.payoutHistorySchema],
        }),
      },
      "/api/publisher/payouts/csv": {
        get: authed({
          summary: "The month's payout statement as CSV (attachment)",
          description: "Columns month, line, description, count, gross_usd_micros, " +
            "platform_fees_usd_micros, net_usd_micros; a last total row naming the payout state. " +
            "Every cell quoted; cells starting with = + - @ guarded.",
          params: [MONTH_PARAM],
          ok: [200, { "text/csv": { schema: { type: "string" } } }],
          errors: [400],
        }),
      },
      "/api/publisher/items": {
        get: authed({
          summary: "The charges for your content, as items, paged and filtered",
          description: "The same items and filters as the buyer's GET /api/marketplace/items, " +
            "for every buyer, without the buyer's idempotency key.",
          params: ITEM_PARAMS,
          ok: [200, payouts.publisherItemPageSchema],
          errors: [400],
        }),
      },
      "/api/publisher/items/csv": {
        get: authed({
          summary: "The charges for your content as CSV (attachment)",
          params: ITEM_PARAMS.filter((p) => p.name !== "cursor" && p.name !== "limit"),
          ok: [200, { "text/csv": { schema: { type: "string" } } }],
          errors: [400],
        }),
      },
      "/api/publisher/disputes": {
        get: authed({
          summary: "Disputes of charges for your content, paged",
          description: "Buyers dispute items with a reason; decide each while it is open. " +
            "Undecided past escalatesAt, it goes to the operator.",
          params: queryParamsOf(disputes.disputeQuerySchema),
          ok: [200, disputes.disputePageSchema],
          errors: [400],
        }),
      },
      "/api/publisher/disputes/{id}/decision": {
        post: authed({
          summary: "Decide a dispute",
          description: "accept: in full (no amount), for amountUsdMicros of the disputed total " +
            "(spread over the items in proportion), or per item (items); a credit note of " +
            "negative items is issued at once, and your payout shrinks by its price share. " +
            "refuse: with a reason. A decided dispute is 409 dispute_decided; an escalated one " +
            "is the operator's (409 dispute_escalated).",
          params: [id],
          body: disputes.disputeDecisionSchema,
          ok: [200, z.object({ dispute: disputes.disputeSchema })],
          errors: [400, 404, 409, 413, 415],
        }),
      },
      // Issue 11, part 2: the lifecycle operations of the publisher console.
      "/api/publisher/rules/order": {
        post: authed({
          summary: "Reorder the content rules",
          description: "ids: every one of the publisher's rule ids, once, in the new evaluation " +
            "order; their priorities become 10, 20, 30, ... in one transaction.",
          body: ruleOrderSchema,
          ok: [200, io.ruleListSchema],
          errors: [400, 413, 415],
        }),
      },
      "/api/publisher/rules/explain": {
        get: authed({
          summary: "Which content rule applies to a URL, and the policy and price that follow",
          description: "A URL that is none of the publisher's articles is evaluated as a new " +
            "article published at `at` (so embargo rules match) with no price override.",
          params: [
            { name: "url", in: "query", required: true, schema: { type: "string" } },
            query("country", COUNTRY),
            query("at", { type: "string", format: "date-time" }),
          ],
          ok: [200, io.explainSchema],
          errors: [400],
        }),
      },
      "/api/publisher/articles/{id}/unpublish": {
        post: authed({
          summary: "Unpublish an article",
          description: "Agents no longer find, list or read it on any surface (a get answers " +
            "article_not_found); charges, calls and intents stay. Unpublishing again changes " +
            "nothing.",
          params: [id],
          ok: [200, z.object({ article: managedArticleSchema })],
          errors: [404],
        }),
      },
      "/api/publisher/articles/{id}/publish": {
        post: authed({
          summary: "Publish an unpublished article again",
          params: [id],
          ok: [200, z.object({ article: managedArticleSchema })],
          errors: [404],
        }),
      },
      "/api/publisher/key/rotate": {
        post: authed({
          summary: "Rotate the publisher key",
          description: "Returns a new pk_ key once (only its hash is stored); every earlier key " +
            "stops working at once, and every other dashboard session ends (all of them when " +
            "a key rotates it); the session asking stays signed in.",
          ok: [200, io.keyResponseSchema],
        }),
      },
      "/api/publisher/password": {
        put: authed({
          summary: "Change the dashboard password",
          description: "Needs the current password (401 when wrong; nothing changes). The new " +
            "one follows the sign-up rules. Every other session of the user ends; the session " +
            "asking stays signed in. With a publisher key, the owner's password changes and all " +
            "sessions end. Wrong current passwords are slowed down like sign-ins (429).",
          body: passwordChangeSchema,
          example: { currentPassword: "a long passphrase", password: "another long passphrase" },
          ok: [204, null, "Changed"],
          errors: [400, 409, 413, 415, 429],
        }),
      },
      "/api/publisher/playground/passages": {
        post: authed({
          summary: "Try retrieve_passages as a buyer sees it, without charging",
          description: "The read path of the MCP tool and REST passages search, for a buyer " +
            "without licenses; nothing is charged, metered or recorded as an intent. " +
            "wouldChargeUsdCents: what that buyer would pay for the article's rag read. Logged " +
            "in the call log as _dash:retrieve_passages.",
          body: playgroundPassagesSchema,
          example: { query: "heat pumps", limit: 3 },
          ok: [200, io.playgroundPassagesResponseSchema],
          errors: [400, 413, 415],
        }),
      },
      ...Object.fromEntries(
        Object.entries(webhookPaths("publisher")).map(([p, ops]) => [`/api/publisher${p}`, ops]),
      ),
    },
  };
}
