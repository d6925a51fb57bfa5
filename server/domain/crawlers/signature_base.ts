/**
 * The RFC 9421 signature base of a Web Bot Auth request (section 2.5): the covered components a
 * Signature-Input names, checked, and one line per component's value in this request.
 *
 * @module
 */
import {
  type BareItem,
  type InnerList,
  isInnerList,
  parseDictionary,
  serializeInnerList,
  serializeItem,
} from "structured-headers";

/** A refusal of the signature: InvalidSignature, or StrongAuthRequired (no Signature-Agent). */
export class Invalid extends Error {
  constructor(readonly code: "InvalidSignature" | "StrongAuthRequired", why: string) {
    super(why);
  }
}

/** An InvalidSignature refusal. */
export function invalid(why: string): Invalid {
  return new Invalid("InvalidSignature", why);
}

/**
 * A covered component: its lower-cased name and, for a Dictionary field's member (RFC 9421
 * section 2.1.2, `"signature-agent";key="sig1"`), the member's key.
 */
export interface Component {
  name: string;
  key: string | null;
}

/**
 * How a `;key` component's value is taken: the member's serialized value, as RFC 9421 section
 * 2.1.2 says (`member`), or the whole field's value (`field`), as web-bot-auth 0.1.3's signer
 * (http-message-sig 0.2.0 `buildSignedData`) computes it: it ignores the parameter.
 */
export type KeyForm = "member" | "field";

const DERIVED = new Set([
  "@method",
  "@target-uri",
  "@authority",
  "@scheme",
  "@request-target",
  "@path",
  "@query",
]);

/** The covered components; parameters other than `key` on a field (;sf, ;bs, ;req, ;tr) are refused. */
export function coveredComponents(input: InnerList): Component[] {
  const seen = new Set<string>();
  return input[0].map(([name, params]) => {
    if (typeof name !== "string") throw invalid("a covered component is not a string");
    const lower = name.toLowerCase();
    if (lower.startsWith("@") && !DERIVED.has(lower)) {
      throw invalid(`covered component ${lower} is not supported`);
    }
    const key = params.get("key");
    const others = [...params.keys()].filter((p) => p !== "key");
    if (others.length || (params.has("key") && lower.startsWith("@"))) {
      throw invalid(
        `covered component ${lower} has parameters (${[...params.keys()].join(", ")}): ` +
          `only key on a header field is supported`,
      );
    }
    if (params.has("key") && typeof key !== "string") {
      throw invalid(`covered component ${lower} has a key that is not a string`);
    }
    const id = serializeItem([lower, params]);
    if (seen.has(id)) throw invalid(`covered component ${id} appears twice`);
    seen.add(id);
    return { name: lower, key: (key as string | undefined) ?? null };
  });
}

/** RFC 9421 section 2.5: one line per covered component, then the signature parameters. */
export function signatureBase(req: Request, input: InnerList, form: KeyForm = "member"): string {
  const url = new URL(req.url);
  const lines = input[0].map((item) => {
    const name = (item[0] as string).toLowerCase();
    const value = name.startsWith("@")
      ? derived(req, url, name)
      : fieldValue(req, name, item[1].get("key"), form);
    // The identifier as the signer wrote it, so the line matches what it signed.
    return `${serializeItem(item)}: ${value}`;
  });
  lines.push(`"@signature-params": ${serializeInnerList(input)}`);
  return lines.join("\n");
}

function fieldValue(req: Request, name: string, key: BareItem | undefined, form: KeyForm) {
  const value = req.headers.get(name);
  if (value === null) throw invalid(`covered header ${name} is not in the request`);
  if (typeof key !== "string" || form === "field") return value;
  const member = dictionaryMember(name, value, key);
  return isInnerList(member) ? serializeInnerList(member) : serializeItem(member);
}

/** A Dictionary field's member (RFC 9421 section 2.1.2); its absence is an invalid signature. */
export function dictionaryMember(name: string, value: string, key: string) {
  let member;
  try {
    member = parseDictionary(value).get(key);
  } catch {
    throw invalid(`covered header ${name} is not a structured-field dictionary`);
  }
  if (member === undefined) throw invalid(`covered header ${name} has no member ${key}`);
  return member;
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
    default: // "@query" (coveredComponents() let no other through)
      return url.search || "?";
  }
}

/** The Host the client sent, lower-cased and without a default port (RFC 9421 section 2.2.3). */
function authority(req: Request, url: URL): string {
  const host = (req.headers.get("host") ?? url.host).toLowerCase();
  return host.replace(/:(80|443)$/, "");
}
