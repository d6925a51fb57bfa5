/**
 * A Web Bot Auth signer for tests: a fresh Ed25519 key, its key directory served on loopback, and
 * request signing with Cloudflare's web-bot-auth library (the same code real crawlers use), so
 * server/domain/crawlers/web_bot_auth.ts is checked against an independent implementation.
 *
 * Verify with a fetcher that may reach loopback:
 * `createFetcher({ userAgent: "FolioBot/test", allowLoopback: true })`.
 *
 * @module
 */
import { HTTP_MESSAGE_SIGNATURES_DIRECTORY, MediaType, signatureHeaders } from "web-bot-auth";
import { Ed25519Signer } from "web-bot-auth/crypto";

/** A signing agent with a loopback key directory; dispose to stop its server. */
export interface TestSigner extends AsyncDisposable {
  /** Origin of the loopback directory server, e.g. "http://127.0.0.1:PORT". */
  agent: string;
  /** The key's RFC 7638 JWK thumbprint. */
  keyid: string;
  /**
   * Returns headers (signature-agent, signature-input, signature) for a request to `url`, covering
   * @authority, @path (unless `path` is false), signature-agent and every header named in `cover`
   * (their values taken from `headers`). `defaults` signs with the library's own default
   * components (`@authority`, `signature-agent`: what crawlers deployed sign) and ignores `cover`
   * and `path`. The library adds a fresh random nonce unless `nonce` is given. `created`/`expires` default to clock-now-1s / +5 min; pass other dates to make
   * expired signatures.
   */
  sign(
    url: string,
    opts?: {
      headers?: Record<string, string>;
      cover?: string[];
      path?: boolean;
      defaults?: boolean;
      nonce?: string;
      /** Sign without a nonce (the library always adds one: the base is written out here). */
      noNonce?: boolean;
      created?: Date;
      expires?: Date;
    },
  ): Promise<Record<string, string>>;
}

/** Starts a loopback directory server (Deno.serve on 127.0.0.1 port 0) serving a fresh Ed25519 key's directory. */
export async function startTestSigner(opts: { now?: () => Date } = {}): Promise<TestSigner> {
  const now = opts.now ?? (() => new Date());
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const signer = await Ed25519Signer.fromJWK(jwk);
  const directory = JSON.stringify({ keys: [{ kty: "OKP", crv: "Ed25519", x: jwk.x }] });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname !== HTTP_MESSAGE_SIGNATURES_DIRECTORY) {
      return new Response("not found", { status: 404 });
    }
    return new Response(directory, {
      headers: { "content-type": MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY },
    });
  });
  const agent = `http://127.0.0.1:${server.addr.port}`;
  const signatureAgent = `"${agent}"`;
  return {
    agent,
    keyid: signer.keyid,
    async sign(url, o = {}) {
      const created = o.created ?? new Date(now().getTime() - 1000);
      const expires = o.expires ?? new Date(created.getTime() + 5 * 60_000 + 1000);
      const headers = { ...o.headers, "signature-agent": signatureAgent };
      const path = o.path === false ? [] : ["@path"];
      const components = ["@authority", ...path, "signature-agent", ...(o.cover ?? [])];
      if (o.noNonce) {
        const names = components.map((c) => c.toLowerCase());
        const c = Math.floor(created.getTime() / 1000), x = Math.floor(expires.getTime() / 1000);
        const input = `(${names.map((n) => `"${n}"`).join(" ")});created=${c};expires=${x}` +
          `;keyid="${signer.keyid}";tag="web-bot-auth"`;
        const u = new URL(url);
        const value = (n: string) =>
          n === "@authority"
            ? u.host
            : n === "@path"
            ? u.pathname
            : (headers as Record<string, string>)[n];
        const base = [...names.map((n) => `"${n}": ${value(n)}`), `"@signature-params": ${input}`];
        const bytes = await signer.sign(base.join("\n"));
        return {
          "signature-agent": signatureAgent,
          "signature-input": `sig1=${input}`,
          "signature": `sig1=:${btoa(String.fromCharCode(...bytes))}:`,
        };
      }
      const signed = await signatureHeaders({ method: "GET", url, headers }, signer, {
        created,
        expires,
        nonce: o.nonce,
        components: o.defaults ? undefined : components.map((c) => c.toLowerCase()),
      });
      return {
        "signature-agent": signatureAgent,
        "signature-input": signed["Signature-Input"],
        "signature": signed.Signature,
      };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
