/**
 * Web Bot Auth: a crawler proves who it is with an RFC 9421 HTTP Message Signature whose key the
 * `Signature-Agent` header points to (draft-meunier-web-bot-auth-architecture). The landing path
 * asks here whether a request is signed, and by whom.
 *
 * A signature must cover @authority and Signature-Agent (whole, or the member
 * `"signature-agent";key="<label>"`): the component set Cloudflare documents and web-bot-auth signs
 * by default (issue 40). The path is not required: signature_replay.ts spends every verified
 * signature once, whatever it covers, so a captured one pays for no second page. Covering `@path`
 * is still recommended (docs/decisions/crawler-gate.md): it fails on another page before any lookup.
 *
 * The signature base is built by signature_base.ts (RFC 9421 section 2.5) and checked with the
 * web-bot-auth library's Ed25519 verifier. The library's own `verify` is not called: it and
 * http-message-sig compare `created`/`expires` with the system clock, which server code never
 * reads (the `folio/clock-only` rule), and they refuse a request carrying more than one
 * signature. Time is checked against `deps.clock`.
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
} from "structured-headers";
import { HTTP_MESSAGE_SIGNATURE_TAG, SIGNATURE_AGENT_HEADER } from "web-bot-auth";
import type { Clock } from "../../platform/clock.ts";
import type { GuardedFetcher } from "../catalog/fetcher.ts";
import { isLoopbackAddress } from "../catalog/ip_ranges.ts";
import { directoryKey } from "./key_directory.ts";
import {
  type Component,
  coveredComponents,
  dictionaryMember,
  Invalid,
  invalid,
  signatureBase,
} from "./signature_base.ts";

/** What a request's Web Bot Auth headers prove. */
export type WebBotAuth =
  /** No Signature / Signature-Input headers. */
  | { kind: "none" }
  /**
   * `agent` is the origin of the Signature-Agent URL, e.g. "https://bot.example"; `covered` the
   * lower-cased component names signed (e.g. ["@authority","@path","signature-agent"]);
   * `replayKey` names this use of the signature (server/domain/crawlers/signature_replay.ts), which is
   * held until `expires`.
   */
  | {
    kind: "verified";
    agent: string;
    keyid: string;
    covered: string[];
    nonce: string | null;
    expires: Date;
    replayKey: string;
  }
  | { kind: "invalid"; code: "InvalidSignature" | "StrongAuthRequired"; why: string };

/** What verification needs: the fetcher for key directories and the clock for validity. */
export interface WebBotAuthDeps {
  fetcher: GuardedFetcher;
  clock: Clock;
}

const SKEW_S = 60; // a signer's clock may run this far ahead of ours
const MAX_VALIDITY_S = 24 * 3600;

/**
 * Verifies the request's Web Bot Auth signature, fetching the agent's key directory (cached). It
 * does not say whether the signature was used before: callers that take it as a credential use
 * `authenticateWebBotAuth()` (server/domain/crawlers/signature_replay.ts).
 */
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
  const components = coveredComponents(input);
  const covered = [...new Set(components.map((c) => c.name))];
  const params = input[1];

  const agentHeader = req.headers.get(SIGNATURE_AGENT_HEADER);
  if (agentHeader === null) {
    throw new Invalid(
      "StrongAuthRequired",
      "a Signature-Agent header is required to find the signer's key directory",
    );
  }
  const agentComponent = components.find((c) => c.name === SIGNATURE_AGENT_HEADER);
  const agent = agentOrigin(agentHeader, label, agentComponent);
  for (const name of ["@authority", SIGNATURE_AGENT_HEADER]) {
    if (!covered.includes(name)) throw invalid(`the signature does not cover ${name}`);
  }

  const keyid = params.get("keyid");
  if (typeof keyid !== "string" || !keyid) throw invalid("the signature has no keyid");
  const alg = params.get("alg");
  if (alg !== undefined && alg !== "ed25519") {
    throw invalid(`the signature's alg ${String(alg)} is not ed25519`);
  }
  const nonce = params.get("nonce");
  if (nonce !== undefined && (typeof nonce !== "string" || !nonce)) {
    throw invalid("the signature's nonce is not a non-empty string");
  }
  const { created, expires } = checkTimes(params, deps.clock.now());
  const signature = signatureBytes(dictionary("Signature", signatureHeader), label);
  const base = signatureBase(req, input);

  const key = await directoryKey(deps, agent, keyid);
  if ("why" in key) throw invalid(key.why);
  const checked = { keyid, created, expires, tag: HTTP_MESSAGE_SIGNATURE_TAG } as const;
  const verifies = async (data: string) => {
    try {
      await key.verify(data, signature, checked);
      return true;
    } catch {
      return false;
    }
  };
  // A `;key` component as web-bot-auth 0.1.3 signs it (the whole field) is accepted too: that
  // signature covers the member and more.
  if (
    !(await verifies(base)) &&
    !(components.some((c) => c.key !== null) && await verifies(signatureBase(req, input, "field")))
  ) {
    throw invalid(
      "the signature does not verify: it was made with another key, or a covered component " +
        "(such as @authority or a signed header) differs from what was signed",
    );
  }
  return {
    kind: "verified",
    agent,
    keyid,
    covered,
    nonce: (nonce as string | undefined) ?? null,
    expires,
    replayKey: await replayKeyOf(keyid, nonce as string | undefined, signature),
  };
}

/**
 * One use of a signature: its keyid and nonce (draft-meunier-web-bot-auth-architecture asks for a
 * nonce per request), else the signature bytes, which Ed25519 makes one per signed message
 * (RFC 8032 section 5.1.6: deterministic). Hashed, so a row's size does not depend on the nonce.
 */
async function replayKeyOf(keyid: string, nonce: string | undefined, signature: Uint8Array) {
  const head = new TextEncoder().encode(
    nonce === undefined ? "signature\n" : `nonce\n${keyid}\n${nonce}`,
  );
  const bytes = nonce === undefined ? new Uint8Array([...head, ...signature]) : head;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
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

/**
 * The Signature-Agent URL's origin: an sf-string, or a dictionary keyed by signature label. When
 * the signature covers one member (`"signature-agent";key="sig1"`), the agent is that member.
 */
function agentOrigin(value: string, label: string, covered: Component | undefined): string {
  let raw: BareItem | undefined;
  if (covered?.key) {
    const member = dictionaryMember(SIGNATURE_AGENT_HEADER, value, covered.key);
    if (!isInnerList(member)) raw = member[0];
  } else {
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
