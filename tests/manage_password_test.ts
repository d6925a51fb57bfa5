/**
 * Issue 28: a publisher changes the dashboard password (current + new, the sign-up rules), and a
 * password change or a key rotation ends the publisher's other sessions, as a buyer's does.
 */
import assert from "node:assert/strict";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";
import { SIGN_IN } from "../server/platform/throttle.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, logIn, PASSWORD, signUp } from "./manage_helpers.ts";

const NEW_PASSWORD = "a brand new passphrase";

type Session = Awaited<ReturnType<typeof logIn>>;

/** The status of a read with this session cookie (200 signed in, 401 ended). */
async function statusOf(folio: TestFolio, s: Session): Promise<number> {
  const res = await folio.request("/api/publisher/settings", { headers: { cookie: s.cookie } });
  await res.body?.cancel();
  return res.status;
}

function changePassword(
  folio: TestFolio,
  body: unknown,
  auth: Session | string,
  from?: string,
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (typeof auth === "string") Object.assign(headers, bearer(auth));
  else Object.assign(headers, { cookie: auth.cookie, "x-csrf-token": auth.csrfToken });
  return folio.request("/api/publisher/password", {
    method: "PUT",
    headers,
    body: JSON.stringify(body),
    from,
  });
}

let fresh = 0;

/** Whether this password signs the email in (a fresh address, so no delay interferes). */
async function signsIn(folio: TestFolio, email: string, password: string): Promise<boolean> {
  const res = await folio.request("/api/publishers/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
    from: `192.0.2.${++fresh}`,
  });
  await res.body?.cancel();
  return res.status === 200;
}

Deno.test("a wrong current password or a weak new one is refused, with a sentence, and nothing changes", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio);
  const mine = await logIn(folio, email);
  const other = await logIn(folio, email);
  const wrong = await changePassword(folio, {
    currentPassword: "not my password",
    password: NEW_PASSWORD,
  }, mine);
  assert.equal(wrong.status, 401);
  assert.deepEqual(await json(wrong), {
    error: {
      code: "invalid_credentials",
      message: "currentPassword: is incorrect",
      param: "currentPassword",
    },
  });
  await assertInvalid(
    await changePassword(folio, { currentPassword: PASSWORD, password: "short" }, mine),
    "password: must be at least 10 characters",
  );
  await assertInvalid(
    await changePassword(folio, { password: NEW_PASSWORD }, mine),
    "currentPassword: is required",
  );
  assert.equal(await statusOf(folio, other), 200, "the other session is still signed in");
  assert.equal(await signsIn(folio, email, PASSWORD), true);
  assert.equal(await signsIn(folio, email, NEW_PASSWORD), false);
  // Without the session's CSRF token: 403, nothing changes.
  const forged = await changePassword(
    folio,
    { currentPassword: PASSWORD, password: NEW_PASSWORD },
    {
      ...mine,
      csrfToken: "x".repeat(32),
    },
  );
  assert.equal(forged.status, 403);
  await forged.body?.cancel();
  assert.equal(await signsIn(folio, email, PASSWORD), true);
});

Deno.test("a password change ends the other sessions and keeps the one that made it", async () => {
  await using folio = await testFolio();
  const { email, apiKey } = await signUp(folio);
  const demo = await logIn(folio, DEMO_CONSOLE_EMAIL, folio.seeded!.consolePassword);
  const mine = await logIn(folio, email);
  const other = await logIn(folio, email);
  const res = await changePassword(
    folio,
    { currentPassword: PASSWORD, password: NEW_PASSWORD },
    mine,
  );
  assert.equal(res.status, 204);
  await res.body?.cancel();
  assert.equal(await statusOf(folio, mine), 200);
  assert.equal(await statusOf(folio, other), 401);
  assert.equal(await statusOf(folio, demo), 200, "another publisher's session stays");
  assert.equal(await signsIn(folio, email, PASSWORD), false);
  assert.equal(await signsIn(folio, email, NEW_PASSWORD), true);
  // The key is not a session: it still works.
  const byKey = await folio.request("/api/publisher/settings", { headers: bearer(apiKey) });
  assert.equal(byKey.status, 200);
  await byKey.body?.cancel();
});

Deno.test("with the publisher key, the owner's password changes and every session ends", async () => {
  await using folio = await testFolio();
  const { email, apiKey } = await signUp(folio);
  const a = await logIn(folio, email);
  const b = await logIn(folio, email);
  const res = await changePassword(
    folio,
    { currentPassword: PASSWORD, password: NEW_PASSWORD },
    apiKey,
  );
  assert.equal(res.status, 204);
  await res.body?.cancel();
  assert.deepEqual([await statusOf(folio, a), await statusOf(folio, b)], [401, 401]);
  assert.equal(await signsIn(folio, email, NEW_PASSWORD), true);
});

Deno.test("rotating the key ends the other sessions (all of them when a key rotates it)", async () => {
  await using folio = await testFolio();
  const { email, apiKey } = await signUp(folio);
  const mine = await logIn(folio, email);
  const other = await logIn(folio, email);
  const bySession = await folio.request("/api/publisher/key/rotate", {
    method: "POST",
    headers: { cookie: mine.cookie, "x-csrf-token": mine.csrfToken },
  });
  assert.equal(bySession.status, 200);
  const { apiKey: fresh } = await json<{ apiKey: string }>(bySession);
  assert.deepEqual([await statusOf(folio, mine), await statusOf(folio, other)], [200, 401]);
  const old = await folio.request("/api/publisher/settings", { headers: bearer(apiKey) });
  assert.equal(old.status, 401);
  await old.body?.cancel();

  const again = await logIn(folio, email);
  const byKey = await folio.request("/api/publisher/key/rotate", {
    method: "POST",
    headers: bearer(fresh),
  });
  assert.equal(byKey.status, 200);
  await byKey.body?.cancel();
  assert.deepEqual([await statusOf(folio, mine), await statusOf(folio, again)], [401, 401]);
});

Deno.test("wrong current passwords are slowed like sign-ins, for that address only", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio);
  const mine = await logIn(folio, email);
  const statuses: number[] = [];
  for (let i = 0; i <= SIGN_IN.perAccount.free + 1; i++) {
    const res = await changePassword(
      folio,
      {
        currentPassword: `guess ${i}`,
        password: NEW_PASSWORD,
      },
      mine,
      "203.0.113.9",
    );
    statuses.push(res.status);
    if (res.status === 429) assert.equal(res.headers.get("retry-after"), "1");
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [...Array(SIGN_IN.perAccount.free + 1).fill(401), 429]);
  const elsewhere = await changePassword(
    folio,
    {
      currentPassword: PASSWORD,
      password: NEW_PASSWORD,
    },
    mine,
    "198.51.100.4",
  );
  assert.equal(elsewhere.status, 204);
  await elsewhere.body?.cancel();
});
