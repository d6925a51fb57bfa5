/**
 * Web Bot Auth: a crawler proves who it is with an RFC 9421 HTTP Message Signature whose key the
 * `Signature-Agent` header points to (draft-meunier-web-bot-auth-architecture). The landing path
 * asks here whether a request is signed, and by whom.
 *
 * The signature base is built here (RFC 9421 section 2.5) and checked with the web-bot-auth
 * library's Ed25519 verifier. The library's own `verify` is not called: it and http-message-sig
 * compare `created`/`expires` with the system clock, which server code never reads (the
 * `folio/clock-only` rule), and they refuse a request carrying more than one signature. Time is
 * checked against `deps.clock`.
 *
 * @module
 */
import {
  type BareItem,
  type Dictionary,
  type InnerList,
  isInnerList,
  type Item,
  parseDictionary,
  parseItem,
  serializeInnerList,
} from "structured-headers";
import { HTTP_MESSAGE_SIGNATURE_TAG, SIGNATURE_AGENT_HEADER } from "web-bot-auth";
import type { Clock } from "../clock.ts";
import type { GuardedFetcher } from "../catalog/fetcher.ts";
import { isLoopbackAddress } from "../catalog/ip_ranges.ts";
import { directoryKey } from "./key_directory.ts";

/** What a request's Web Bot Auth headers prove. */
export type WebBotAuth =
  /** No Signature / Signature-Input headers. */
  | { kind: "none" }
  /**
   * `agent` is the origin of the Signature-Agent URL, e.g. "https://bot.example"; `covered` the
   * lower-cased component names signed (e.g. ["@authority","signature-agent","crawler-exact-price"]).
   */
  | { kind: "verified"; agent: string; keyid: string; covered: string[] }
  | { kind: "invalid"; code: "InvalidSignature" | "StrongAuthRequired"; why: string };

/** What verification needs: the fetcher for key directories and the clock for validity. */
export interface WebBotAuthDeps {
  fetcher: GuardedFetcher;
  clock: Clock;
}

const SKEW_S = 60; // a signer's clock may run this far ahead of ours
const MAX_VALIDITY_S = 24 * 3600;
const DERIVED = new Set([
  "@method",
  "@target-uri",
  "@authority",
  "@scheme",
  "@request-target",
  "@path",
  "@query",
]);

class Invalid extends Error {
  constructor(readonly code: "InvalidSignature" | "StrongAuthRequired", why: string) {
    super(why);
  }
}

/** Verifies the request's Web Bot Auth signature, fetching the agent's key directory (cached). */
export async function verifyWebBotAuth(deps: WebBotAuthDeps, req: Request): Promise<WebBotAuth> {
  try {
    return await verify(deps, req);
  } catch (e) {
    if (e instanceof Invalid) return { kind: "invalid", code: e.code, why: e.message };
    throw e;
  }
}

async function verify(deps: WebBotAuthDeps, req: Request): Promise<WebBotAuth> {
  const signatureHeader = req.headers.get("signature");
  const inputHeader = req.headers.get("signature-input");
  if (signatureHeader === null && inputHeader === null) return { kind: "none" };
  if (signatureHeader === null || inputHeader === null) {
    const [has, lacks] = signatureHeader === null
      ? ["Signature-Input", "Signature"]
      : ["Signature", "Signature-Input"];
    throw invalid(`the request has a ${has} header but no ${lacks} header`);
  }
  const [label, input] = webBotAuthInput(dictionary("Signature-Input", inputHeader));
  const covered = coveredNames(input);
  const params = input[1];

  const agentHeader = req.headers.get(SIGNATURE_AGENT_HEADER);
  if (agentHeader === null) {
    throw new Invalid(
      "StrongAuthRequired",
      "a Signature-Agent header is required to find the signer's key directory",
    );
  }
  const agent = agentOrigin(agentHeader, label);
  for (const name of ["@authority", SIGNATURE_AGENT_HEADER]) {
    if (!covered.includes(name)) throw invalid(`the signature does not cover ${name}`);
  }

  const keyid = params.get("keyid");
  if (typeof keyid !== "string" || !keyid) throw invalid("the signature has no keyid");
  const alg = params.get("alg");
  if (alg !== undefined && alg !== "ed25519") {
    throw invalid(`the signature's alg ${String(alg)} is not ed25519`);
  }
  const { created, expires } = checkTimes(params, deps.clock.now());
  const signature = signatureBytes(dictionary("Signature", signatureHeader), label);
  const base = signatureBase(req, input);

  const key = await directoryKey(deps, agent, keyid);
  if ("why" in key) throw invalid(key.why);
  try {
    await key.verify(base, signature, {
      keyid,
      created,
      expires,
      tag: HTTP_MESSAGE_SIGNATURE_TAG,
    });
  } catch {
    throw invalid(
      "the signature does not verify: it was made with another key, or a covered component " +
        "(such as @authority or a signed header) differs from what was signed",
    );
  }
  return { kind: "verified", agent, keyid, covered };
}

function invalid(why: string): Invalid {
  return new Invalid("InvalidSignature", why);
}

function dictionary(name: string, value: string): Dictionary {
  try {
    return parseDictionary(value);
  } catch (e) {
    throw invalid(
      `the ${name} header is not a structured-field dictionary: ${(e as Error).message}`,
    );
  }
}

/** The label and inner list of the signature tagged web-bot-auth (others may sign for others). */
function webBotAuthInput(inputs: Dictionary): [string, InnerList] {
  for (const [label, member] of inputs) {
    if (isInnerList(member) && member[1].get("tag") === HTTP_MESSAGE_SIGNATURE_TAG) {
      return [label, member];
    }
  }
  throw invalid(`no signature in Signature-Input is tagged ${HTTP_MESSAGE_SIGNATURE_TAG}`);
}

function coveredNames(input: InnerList): string[] {
  const names: string[] = [];
  for (const [name, params] of input[0]) {
    if (typeof name !== "string") throw invalid("a covered component is not a string");
    // Component parameters (;sf, ;key, ;bs, ;req) change the value signed; none are supported.
    if (params.size) throw invalid(`covered component ${name} has parameters, not supported`);
    const lower = name.toLowerCase();
    if (names.includes(lower)) throw invalid(`covered component ${lower} appears twice`);
    if (lower.startsWith("@") && !DERIVED.has(lower)) {
      throw invalid(`covered component ${lower} is not supported`);
    }
    names.push(lower);
  }
  return names;
}

/** The Signature-Agent URL's origin: an sf-string, or a dictionary keyed by signature label. */
function agentOrigin(value: string, label: string): string {
  let raw: BareItem | undefined;
  try {
    raw = parseItem(value)[0];
  } catch {
    try {
      const agents = parseDictionary(value);
      const member = agents.get(label) ?? agents.values().next().value;
      if (member && !isInnerList(member)) raw = (member as Item)[0];
    } catch {
      // neither form; refused below
    }
  }
  if (typeof raw !== "string") {
    throw invalid("Signature-Agent is neither a quoted URL nor a dictionary of quoted URLs");
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`Signature-Agent ${JSON.stringify(raw)} is not a URL`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const loopback = host === "localhost" || isLoopbackAddress(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw invalid(`Signature-Agent ${url.origin} is not an https URL`);
  }
  if (url.username || url.password) throw invalid("Signature-Agent must not carry credentials");
  return url.origin;
}

function checkTimes(params: Map<string, BareItem>, now: Date): { created: Date; expires: Date } {
  const created = params.get("created");
  const expires = params.get("expires");
  if (!Number.isSafeInteger(created) || !Number.isSafeInteger(expires)) {
    throw invalid("the signature needs integer created and expires parameters");
  }
  const [c, x] = [created as number, expires as number];
  const nowS = Math.floor(now.getTime() / 1000);
  const at = (s: number) => new Date(s * 1000).toISOString();
  if (c > nowS + SKEW_S) throw invalid(`the signature was created in the future (${at(c)})`);
  if (x <= nowS) throw invalid(`the signature expired at ${at(x)}`);
  if (x < c) throw invalid("the signature expires before it was created");
  if (x - c > MAX_VALIDITY_S) throw invalid("the signature is valid for longer than 24 hours");
  return { created: new Date(c * 1000), expires: new Date(x * 1000) };
}

function signatureBytes(signatures: Dictionary, label: string): Uint8Array {
  const member = signatures.get(label);
  if (!member || isInnerList(member) || !(member[0] instanceof ArrayBuffer)) {
    throw invalid(`the Signature header has no byte sequence labelled ${label}`);
  }
  return new Uint8Array(member[0]);
}

/** RFC 9421 section 2.5: one line per covered component, then the signature parameters. */
function signatureBase(req: Request, input: InnerList): string {
  const url = new URL(req.url);
  const lines = input[0].map(([item]) => {
    const name = item as string;
    const lower = name.toLowerCase();
    const value = lower.startsWith("@") ? derived(req, url, lower) : req.headers.get(lower);
    if (value === null) throw invalid(`covered header ${lower} is not in the request`);
    return `"${name}": ${value}`;
  });
  lines.push(`"@signature-params": ${serializeInnerList(input)}`);
  return lines.join("\n");
}

function derived(req: Request, url: URL, name: string): string {
  switch (name) {
    case "@method":
      return req.method;
    case "@target-uri":
      return url.href;
    case "@authority":
      return authority(req, url);
    case "@scheme":
      return url.protocol.slice(0, -1);
    case "@request-target":
      return `${url.pathname}${url.search}`;
    case "@path":
      return url.pathname;
    default: // "@query" (coveredNames() let no other through)
      return url.search || "?";
  }
}

/** The Host the client sent, lower-cased and without a default port (RFC 9421 section 2.2.3). */
function authority(req: Request, url: URL): string {
  const host = (req.headers.get("host") ?? url.host).toLowerCase();
  return host.replace(/:(80|443)$/, "");
}
