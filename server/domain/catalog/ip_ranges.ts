/**
 * Classify IP addresses for the guarded fetcher: which ones a server-side request may connect to.
 * Pure functions, no I/O. Everything not provably public is refused (fail closed).
 */

/** Why an address is refused, or "invalid" when it does not parse as an IP address. */
export type ForbiddenReason =
  | "invalid"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "multicast"
  | "unspecified"
  | "reserved"
  | "benchmark"
  | "broadcast"
  | "documentation"
  | "unique_local"
  | "ipv4_mapped";

type Range = [prefix: number[], bits: number, reason: ForbiddenReason];

// Order matters only where ranges nest; the first match wins.
const V4_RANGES: Range[] = [
  [[255, 255, 255, 255], 32, "broadcast"],
  [[0], 8, "unspecified"],
  [[10], 8, "private"],
  [[100, 64], 10, "cgnat"],
  [[127], 8, "loopback"],
  [[169, 254], 16, "link_local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "reserved"],
  [[192, 0, 2], 24, "documentation"],
  [[192, 88, 99], 24, "reserved"],
  [[192, 168], 16, "private"],
  [[198, 18], 15, "benchmark"],
  [[198, 51, 100], 24, "documentation"],
  [[203, 0, 113], 24, "documentation"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved"],
];

// Checked only after the embedded-IPv4 forms; prefixes are bytes.
const V6_RANGES: Range[] = [
  [[0xfc], 7, "unique_local"],
  [[0xfe, 0x80], 10, "link_local"],
  [[0xfe, 0xc0], 10, "reserved"],
  [[0xff], 8, "multicast"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "documentation"],
  [[0x3f, 0xff], 20, "documentation"],
  // IETF protocol assignments: Teredo (tunnels to an address we cannot check), ORCHID, benchmarking.
  [[0x20, 0x01, 0x00], 23, "reserved"],
  [[0x64, 0xff, 0x9b, 0, 1], 48, "reserved"], // local-use NAT64
];

function inRange(bytes: Uint8Array, prefix: number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i] & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function parseV4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    // Strict dotted decimal: leading zeros are octal to some parsers, so they are not accepted.
    if (!/^(0|[1-9]\d{0,2})$/.test(parts[i])) return null;
    const n = Number(parts[i]);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

function parseV6(text: string): Uint8Array | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone); // a scope id does not change which range the address is in
  const groups: number[] = [];
  const halves = s.split("::");
  if (halves.length > 2 || s.length === 0) return null;
  const parseHalf = (half: string, last: boolean): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const items = half.split(":");
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (last && i === items.length - 1 && item.includes(".")) {
        const v4 = parseV4(item);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(item)) out.push(parseInt(item, 16));
      else return null;
    }
    return out;
  };
  const head = parseHalf(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? parseHalf(halves[1], true) : [];
  if (!head || !tail) return null;
  if (halves.length === 1 && head.length !== 8) return null;
  if (halves.length === 2 && head.length + tail.length > 7) return null;
  groups.push(...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail);
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

/** Parse an IPv4 (4 bytes) or IPv6 (16 bytes, brackets and zone id allowed) address; null if neither. */
export function parseIp(ip: string): Uint8Array | null {
  return ip.includes(":") ? parseV6(ip) : parseV4(ip);
}

/** True only for 127.0.0.0/8 and ::1, the addresses the allowLoopback switch opens. */
export function isLoopbackAddress(ip: string): boolean {
  const b = parseIp(ip);
  if (!b) return false;
  if (b.length === 4) return b[0] === 127;
  return b.every((x, i) => x === (i === 15 ? 1 : 0));
}

function classifyV4(b: Uint8Array): ForbiddenReason | null {
  for (const [prefix, bits, reason] of V4_RANGES) if (inRange(b, prefix, bits)) return reason;
  return null;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(b: Uint8Array): Uint8Array | null {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12, 16); // ::ffff:a.b.c.d
  if (zeros(0, 12)) return b.slice(12, 16); // ::a.b.c.d (deprecated IPv4-compatible)
  if (inRange(b, [0x00, 0x64, 0xff, 0x9b], 32) && zeros(4, 12)) return b.slice(12, 16); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 6to4
  return null;
}

/**
 * Why a server-side request must not connect to `ip`, or null when the address is public.
 * allowLoopback (tests, local origins) opens only 127.0.0.0/8 and ::1, never embedded forms.
 */
export function isForbiddenAddress(
  ip: string,
  opts: { allowLoopback?: boolean } = {},
): ForbiddenReason | null {
  const b = parseIp(ip);
  if (!b) return "invalid";
  if (opts.allowLoopback && isLoopbackAddress(ip)) return null;
  if (b.length === 4) return classifyV4(b);
  if (b.every((x) => x === 0)) return "unspecified";
  if (b.every((x, i) => x === (i === 15 ? 1 : 0))) return "loopback";
  const v4 = embeddedV4(b);
  if (v4) {
    const reason = classifyV4(v4);
    // The loopback switch is for 127.0.0.1 and ::1 themselves; a mapped form is refused by name.
    return reason === "loopback" && opts.allowLoopback ? "ipv4_mapped" : reason;
  }
  for (const [prefix, bits, reason] of V6_RANGES) if (inRange(b, prefix, bits)) return reason;
  // Only 2000::/3 is global unicast; everything else is unassigned or special.
  return (b[0] & 0xe0) === 0x20 ? null : "reserved";
}
