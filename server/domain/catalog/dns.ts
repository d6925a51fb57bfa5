/**
 * TXT lookups for domain verification (server/surfaces/manage/domains.ts), beside the fetcher's A/AAAA
 * lookups: the only other place the server asks DNS. Injected as `deps.resolveTxt` so tests stand
 * in a resolver, as the fetcher's `resolve` option does.
 */

/** The TXT records of `name`, each record's strings joined (RFC 7208 §3.3); [] when it has none. */
export type TxtResolver = (name: string) => Promise<string[]>;

/** The system resolver's answer. */
export async function resolveTxtSystem(name: string): Promise<string[]> {
  const host = name.replace(/\.$/, "").toLowerCase();
  // RFC 6761: localhost names are not in DNS; nothing there can prove them.
  if (host === "localhost" || host.endsWith(".localhost")) return [];
  try {
    const records = await Deno.resolveDns(host, "TXT");
    return records.map((chunks) => chunks.join(""));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}
