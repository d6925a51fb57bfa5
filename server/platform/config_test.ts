import assert from "node:assert/strict";
import { ConfigError, loadConfig, withListeningPort } from "./config.ts";

Deno.test("loadConfig() applies the documented defaults", () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, "0.0.0.0");
  assert.equal(c.baseUrl, "http://localhost:8080");
  assert.equal(c.dataDir, "./data");
  assert.match(c.dbUrl, /^file:\/.*\/data\/folio\.db$/);
  assert.equal(c.seed, true);
  assert.equal(c.logLevel, "info");
  assert.equal(c.countryHeader, null);
  assert.equal(c.fetchAllowLoopback, false);
  assert.deepEqual(c.trustedDomains, ["localhost"]);
  assert.equal(c.reusePort, false);
  const cores = navigator.hardwareConcurrency;
  assert.equal(c.searchThreads, Math.min(4, Math.max(1, cores - 1)));
  assert.equal(c.stripe, null);
});

Deno.test("FOLIO_TRUSTED_DOMAINS lists suffixes; empty trusts none", () => {
  const c = loadConfig({ FOLIO_TRUSTED_DOMAINS: " Localhost, *.test ,.example," });
  assert.deepEqual(c.trustedDomains, ["localhost", "test", "example"]);
  assert.deepEqual(loadConfig({ FOLIO_TRUSTED_DOMAINS: "" }).trustedDomains, []);
  assert.deepEqual(loadConfig({}, ["--trusted-domains=dev.internal"]).trustedDomains, [
    "dev.internal",
  ]);
});

Deno.test("loadConfig() lets FOLIO_DB_URL override the data dir file", () => {
  const c = loadConfig({ FOLIO_DATA_DIR: "/tmp/x", FOLIO_DB_URL: "libsql://db.example.com" });
  assert.equal(c.dbUrl, "libsql://db.example.com");
  assert.equal(loadConfig({ FOLIO_DATA_DIR: "/tmp/x/" }).dbUrl, "file:/tmp/x/folio.db");
});

Deno.test("loadConfig() derives the base URL from the real port when PORT=0", () => {
  const c = loadConfig({ PORT: "0" });
  assert.equal(withListeningPort(c, 43123).baseUrl, "http://localhost:43123");
  const fixed = loadConfig({ PORT: "0", FOLIO_BASE_URL: "https://folio.example.com/" });
  assert.equal(fixed.baseUrl, "https://folio.example.com");
  assert.equal(withListeningPort(fixed, 43123).baseUrl, "https://folio.example.com");
});

Deno.test("loadConfig() reads flags, which win over the environment", () => {
  const c = loadConfig({ PORT: "9000" }, ["--port=9001", "--seed=0", "--log-level=debug"]);
  assert.equal(c.port, 9001);
  assert.equal(loadConfig({}, ["--reuse-port=1"]).reusePort, true);
  assert.equal(loadConfig({ FOLIO_REUSE_PORT: "yes" }).reusePort, true);
  assert.equal(loadConfig({ FOLIO_SEARCH_THREADS: "3" }, ["--search-threads=0"]).searchThreads, 0);
  assert.equal(c.seed, false);
  assert.equal(c.logLevel, "debug");
  const prefixed = loadConfig({}, ["--folio-data-dir=/tmp/flags", "--base-url=https://f.example"]);
  assert.equal(prefixed.dataDir, "/tmp/flags");
  assert.equal(prefixed.baseUrl, "https://f.example");
});

Deno.test("loadConfig() fails fast with a sentence naming the variable and the problem", () => {
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{ PORT: "80a" }, [], /^PORT must be a whole number from 0 to 65535, got "80a"$/],
    [{ PORT: "70000" }, [], /^PORT must be/],
    [{ FOLIO_BASE_URL: "not a url" }, [], /^FOLIO_BASE_URL must be an absolute http\(s\) URL/],
    [{ FOLIO_BASE_URL: "ftp://x" }, [], /^FOLIO_BASE_URL must use http or https/],
    [{ FOLIO_BASE_URL: "http://x/?a=1" }, [], /^FOLIO_BASE_URL must not carry a query/],
    [{ FOLIO_DB_URL: "postgres://x" }, [], /^FOLIO_DB_URL must start with file:/],
    [{ FOLIO_SEED: "maybe" }, [], /^FOLIO_SEED must be 1 or 0/],
    [{ FOLIO_REUSE_PORT: "both" }, [], /^FOLIO_REUSE_PORT must be 1 or 0/],
    [
      { FOLIO_SEARCH_THREADS: "17" },
      [],
      /^FOLIO_SEARCH_THREADS must be a whole number from 0 to 16/,
    ],
    [{ FOLIO_SEARCH_THREADS: "-1" }, [], /^FOLIO_SEARCH_THREADS must be a whole number/],
    [{ FOLIO_LOG_LEVEL: "loud" }, [], /^FOLIO_LOG_LEVEL must be one of debug, info, warn, error/],
    [{ FOLIO_LOG_FORMAT: "xml" }, [], /^FOLIO_LOG_FORMAT must be text or json, got "xml"/],
    [{ FOLIO_COUNTRY_HEADER: "cf ipcountry" }, [], /^FOLIO_COUNTRY_HEADER must be an HTTP header/],
    [
      { FOLIO_TRUSTED_DOMAINS: "localhost, news example" },
      [],
      /^FOLIO_TRUSTED_DOMAINS must be domain suffixes separated by commas, got "news example"$/,
    ],
    [{ STRIPE_SECRET_KEY: "sk_test" }, [], /^STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/],
    [{ FOLIO_SMTP_URL: "mail.example.com" }, [], /^FOLIO_SMTP_URL must be a URL like smtp:/],
    [{ FOLIO_SMTP_URL: "https://u:secret@mail.example.com" }, [], /got a https: URL$/],
    [
      { FOLIO_SMTP_URL: "smtp://mail.example.com", FOLIO_MAIL_FROM: "nobody" },
      [],
      /^FOLIO_MAIL_FROM must be an address/,
    ],
    [{}, ["--port"], /^Unknown argument "--port"/],
    [{}, ["--prot=9000"], /^Unknown flag --prot \(did you mean --port\?\): the flags are --port, /],
    [{}, ["--colour=red"], /^Unknown flag --colour: the flags are /],
  ];
  for (const [env, args, message] of cases) {
    assert.throws(() => loadConfig(env, args), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, message);
      return true;
    });
  }
});

Deno.test("loadConfig() puts a relative data dir under the working directory without ./", () => {
  assert.equal(loadConfig({}).dbUrl, `file:${Deno.cwd()}/data/folio.db`);
  assert.equal(loadConfig({ FOLIO_DATA_DIR: "./x/y" }).dbUrl, `file:${Deno.cwd()}/x/y/folio.db`);
});

Deno.test("email is off unless FOLIO_SMTP_URL is set; the From defaults to the base URL's host", () => {
  assert.equal(loadConfig({}).mail, null);
  assert.deepEqual(
    loadConfig({
      FOLIO_SMTP_URL: "smtp://u:p@mail.example.com:587",
      FOLIO_BASE_URL: "https://folio.example.com",
    }).mail,
    { smtpUrl: "smtp://u:p@mail.example.com:587", from: "Folio <no-reply@folio.example.com>" },
  );
  const custom = loadConfig({
    FOLIO_SMTP_URL: "smtps://mail.example.com:465",
    FOLIO_MAIL_FROM: "Billing <billing@example.com>",
  });
  assert.equal(custom.mail?.from, "Billing <billing@example.com>");
});
