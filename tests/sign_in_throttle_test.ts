/**
 * Issue 28: sign-in throttles cannot lock the real owner out. Wrong passwords slow one (address,
 * email) pair with a growing delay, one address is bounded across emails, and refusals read the
 * same for emails with and without an account. Both password sign-ins, publisher and buyer.
 */
import assert from "node:assert/strict";
import { SIGN_IN } from "../server/platform/throttle.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { PASSWORD, signUp } from "./manage_helpers.ts";

const ATTACKER = "203.0.113.9";
const OWNER = "198.51.100.4";
const { free, decayMs, maxDelayMs } = SIGN_IN.perAccount;

/** The two sign-ins by email and password: where they post, what success is, an account. */
const SIGN_INS = [
  {
    name: "publisher",
    path: "/api/publishers/login",
    ok: 200,
    account: async (folio: TestFolio) => (await signUp(folio, { slug: "acme" })).email,
  },
  {
    name: "buyer",
    path: "/api/marketplace/session",
    ok: 201,
    account: async (folio: TestFolio) => {
      await apiSignup(folio, { email: "ops@acme.test", password: PASSWORD });
      return "ops@acme.test";
    },
  },
] as const;

/** One attempt; answers the status and Retry-After (the body consumed). */
async function attempt(
  folio: TestFolio,
  path: string,
  from: string,
  email: string,
  password = "not the password",
): Promise<{ status: number; retryAfter: number | null }> {
  const res = await folio.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
    from,
  });
  await res.body?.cancel();
  const retry = res.headers.get("retry-after");
  return { status: res.status, retryAfter: retry === null ? null : Number(retry) };
}

for (const s of SIGN_INS) {
  Deno.test(`${s.name}: the owner signs in from another address after an attacker's 50 wrong attempts`, async () => {
    await using folio = await testFolio();
    const email = await s.account(folio);
    const checked: number[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await attempt(folio, s.path, ATTACKER, email);
      if (r.status === 429) assert.ok(r.retryAfter! >= 1, `attempt ${i + 1}: Retry-After`);
      else checked.push(r.status);
    }
    assert.deepEqual(checked, Array(free + 1).fill(401), "only the free ones and one more");
    const owner = await attempt(folio, s.path, OWNER, email, PASSWORD);
    assert.equal(owner.status, s.ok);
    // The attacker's address waits even with the right password.
    const right = await attempt(folio, s.path, ATTACKER, email, PASSWORD);
    assert.equal(right.status, 429);
    assert.ok(right.retryAfter! >= 1);
  });

  Deno.test(`${s.name}: an address that waits out every Retry-After stays slowed, at most one guess per 15 minutes`, async () => {
    await using folio = await testFolio();
    const email = await s.account(folio);
    for (let i = 0; i <= free; i++) await attempt(folio, s.path, ATTACKER, email);
    const waits: number[] = [];
    for (let round = 0; round < 16; round++) {
      const refused = await attempt(folio, s.path, ATTACKER, email);
      assert.equal(refused.status, 429, `round ${round}`);
      waits.push(refused.retryAfter!);
      folio.clock.advance(refused.retryAfter! * 1000);
      assert.equal((await attempt(folio, s.path, ATTACKER, email)).status, 401);
    }
    assert.deepEqual(waits.slice(0, 10), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    assert.deepEqual(waits.slice(10), Array(6).fill(maxDelayMs / 1000), "stays at the slowest");
    assert.equal((await attempt(folio, s.path, OWNER, email, PASSWORD)).status, s.ok);
  });

  Deno.test(`${s.name}: refusals for an unknown email and a known one are byte-identical, with the same work`, async () => {
    await using folio = await testFolio();
    const known = await s.account(folio);
    const unknown = "nobody@acme.test";
    const send = async (from: string, email: string) => {
      const res = await folio.request(s.path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "not the password" }),
        from,
      });
      const headers = [...res.headers].filter(([k]) => k !== "x-request-id");
      return { status: res.status, headers, body: await res.text() };
    };
    await send("192.0.2.1", unknown); // the first unknown email makes the process's dummy hash
    const seen: number[] = [];
    for (let i = 0; i < free + 3; i++) {
      const [a, aWork] = await counting(() => send("192.0.2.2", known));
      const [b, bWork] = await counting(() => send("192.0.2.3", unknown));
      assert.deepEqual(b, a, `attempt ${i + 1}`);
      assert.equal(bWork, aWork, `attempt ${i + 1}: password hashes computed`);
      seen.push(a.status);
      assert.equal(aWork, a.status === 401 ? 1 : 0);
    }
    assert.deepEqual(seen, [...Array(free + 1).fill(401), 429, 429]);
  });

  Deno.test(`${s.name}: one address is bounded across many emails; other addresses are not`, async () => {
    await using folio = await testFolio();
    const email = await s.account(folio);
    for (let i = 0; i < SIGN_IN.perAddress.limit; i++) {
      const r = await attempt(folio, s.path, ATTACKER, `guess${i}@acme.test`);
      assert.equal(r.status, 401, `email ${i + 1}`);
    }
    const bounded = await attempt(folio, s.path, ATTACKER, "one-more@acme.test");
    assert.equal(bounded.status, 429);
    assert.ok(bounded.retryAfter! > 0 && bounded.retryAfter! <= 900);
    assert.equal((await attempt(folio, s.path, ATTACKER, email, PASSWORD)).status, 429);
    assert.equal((await attempt(folio, s.path, OWNER, email, PASSWORD)).status, s.ok);
    folio.clock.advance(bounded.retryAfter! * 1000);
    assert.equal((await attempt(folio, s.path, ATTACKER, email, PASSWORD)).status, s.ok);
  });

  Deno.test(`${s.name}: failures decay with the clock, and a success forgets them`, async () => {
    await using folio = await testFolio();
    const email = await s.account(folio);
    const statuses = async (from: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await attempt(folio, s.path, from, email)).status);
      return out;
    };
    for (const from of ["192.0.2.10", "192.0.2.11"]) await statuses(from, free + 1);
    // Waiting out the delay only: one more check, then a longer wait.
    folio.clock.advance(1_000);
    assert.deepEqual(await statuses("192.0.2.10", 2), [401, 429]);
    // Two quiet decay periods forgive two failures: two checks before the first delay again.
    folio.clock.advance(2 * decayMs);
    assert.deepEqual(await statuses("192.0.2.11", 3), [401, 401, 429]);
    // A success from the pair's address forgets its failures: all the free ones again.
    folio.clock.advance(maxDelayMs);
    assert.equal((await attempt(folio, s.path, "192.0.2.11", email, PASSWORD)).status, s.ok);
    assert.deepEqual(await statuses("192.0.2.11", free + 2), [...Array(free + 1).fill(401), 429]);
  });
}

Deno.test("IPv6 addresses of one /64 share a budget; another /64 has its own", async () => {
  await using folio = await testFolio();
  const email = await SIGN_INS[0].account(folio);
  const path = SIGN_INS[0].path;
  for (let i = 0; i <= free; i++) {
    assert.equal((await attempt(folio, path, `2001:db8:0:1::${i + 1}`, email)).status, 401);
  }
  assert.equal((await attempt(folio, path, "2001:db8:0:1:ffff::9", email)).status, 429);
  assert.equal((await attempt(folio, path, "2001:db8:0:2::1", email, PASSWORD)).status, 200);
});

/** Runs `f`, counting the PBKDF2 derivations (password hashes) it makes. */
async function counting<T>(f: () => Promise<T>): Promise<[T, number]> {
  const subtle = crypto.subtle;
  const real = subtle.deriveBits;
  let n = 0;
  subtle.deriveBits = function (this: SubtleCrypto, ...args: Parameters<typeof real>) {
    if ((args[0] as { name?: string }).name === "PBKDF2") n++;
    return real.apply(this, args);
  } as typeof real;
  try {
    return [await f(), n];
  } finally {
    subtle.deriveBits = real;
  }
}
