/**
 * Wire snapshots: what a client receives (status, the headers that matter, the body's text), with values that differ between runs masked (ports, request ids, record ids, secrets,
 * UUIDs). Snapshot a table of these with `t.assertSnapshot` to pin a surface byte for byte.
 */

/** One response as a client sees it. */
export interface Wire {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const MASKS: [RegExp, string][] = [
  // A receipt (compact JWS): signed with this run's key.
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "JWS"],
  [/\b(chg|rct)_[0-9a-z]{26}\b/g, "$1_*"],
  [/\b((?:[a-z0-9-]+\.)+[a-z0-9-]+|localhost):\d{2,5}\b/g, "$1:PORT"],
  [/\breq_[0-9A-Za-z]{16}\b/g, "req_*"],
  [/\b(mk|pk|fat|frt|fac|fs|mcs)_[0-9A-Za-z]{32,}\b/g, "$1_*"],
  [/\b([a-z]{2,5})_[0-9A-Za-z]{16}\b/g, "$1_*"],
  [/\bcli_[0-9A-Za-z]{12}\b/g, "cli_*"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "UUID"],
  [/\b(sess:)[0-9a-f]{32}\b/g, "$1*"],
];

/** `text` with run-specific values replaced by stable placeholders. */
export function mask(text: string): string {
  return MASKS.reduce((t, [re, to]) => t.replace(re, to), text);
}

/** The response as a Wire, consuming its body; the body stays text, so its bytes are pinned. */
export async function wire(res: Response, headers: string[] = []): Promise<Wire> {
  const body = mask(await res.text());
  const picked: Record<string, string> = {};
  for (const h of ["content-type", ...headers]) {
    const v = res.headers.get(h);
    if (v !== null) picked[h] = mask(v);
  }
  return { status: res.status, headers: picked, body };
}
