/** The admin CLI as an operator runs it: `deno task folio <command>` against a data dir. */
import assert from "node:assert/strict";
import { hashSecret } from "../server/platform/secrets.ts";
import { openStore } from "../store/db.ts";
import { findPublisherIdByKeyHash } from "../store/publishers.ts";
import { verifyPassword } from "../server/domain/accounts/passwords.ts";
import { findUserByEmail } from "../store/users.ts";
import { findSession, insertSession } from "../store/sessions.ts";
import { startTestFolio } from "./helpers.ts";

const CLI = new URL("../scripts/folio.ts", import.meta.url).pathname;

async function folio(dir: string, ...args: string[]) {
  return await folioWith({ FOLIO_DATA_DIR: dir }, ...args);
}

async function folioWith(env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "--allow-all",
      CLI,
      ...args,
    ],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("the CLI migrates, creates a publisher and a buyer, and prints each key once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const migrate = await folio(dir, "migrate");
    assert.equal(migrate.code, 0);
    assert.match(migrate.stdout, /^Store is at schema version \d+\.$/);

    const pub = await folio(
      dir,
      "create-publisher",
      "--name=Harbour Gazette",
      "--slug=harbour",
      "--domain=news.harbour.test",
    );
    assert.equal(pub.code, 0, pub.stderr);
    const apiKey = /apiKey: (pk_\S+)/.exec(pub.stdout)?.[1];
    assert.ok(apiKey);

    const buyer = await folio(dir, "create-buyer", "--name=Acme AI", "--email=ops@acme.test");
    assert.equal(buyer.code, 0, buyer.stderr);
    const buyerId = /buyerId: (\S+)/.exec(buyer.stdout)?.[1];
    const mk = /apiKey: (mk_\S+)/.exec(buyer.stdout)?.[1];
    assert.ok(buyerId && mk);

    const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
    try {
      const pubs = await store.db.execute(
        "SELECT slug, custom_domain FROM publishers WHERE slug = 'harbour'",
      );
      assert.equal(pubs.rows[0].custom_domain, "news.harbour.test");
      // Only hashes are stored.
      const keys = await store.db.execute(
        "SELECT key_hash FROM buyer_keys UNION ALL SELECT key_hash FROM publisher_keys",
      );
      assert.ok(
        keys.rows.every((r) =>
          !String(r.key_hash).startsWith("mk_") && !String(r.key_hash).startsWith("pk_")
        ),
      );
      const client = await store.db.execute({
        sql: "SELECT kind FROM oauth_clients WHERE id = ?",
        args: [`buyer:${buyerId}`],
      });
      assert.equal(client.rows[0].kind, "buyer");
    } finally {
      store.close();
    }

    const statement = await folio(dir, "export-statement", `--buyer=${buyerId}`, "--month=2026-11");
    assert.equal(statement.code, 0, statement.stderr);
    const doc = JSON.parse(statement.stdout);
    assert.equal(doc.buyerId, buyerId);
    assert.equal(doc.month, "2026-11");
    const csv = await folio(
      dir,
      "export-statement",
      `--buyer=${buyerId}`,
      "--month=2026-11",
      "--format=csv",
    );
    assert.equal(csv.code, 0);
    assert.match(csv.stdout, /^"month","publisher"/);

    const missing = await folio(dir, "rebuild-index", "--publisher=pub_demo");
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'folio: Publisher "pub_demo" was not found');
    const seed = await folio(dir, "seed");
    assert.match(seed.stdout, /^Seeded the demo publisher with 48 articles; its key: pk_/);
    const rebuild = await folio(dir, "rebuild-index", "--publisher=pub_demo");
    assert.equal(rebuild.code, 0, rebuild.stderr);
    assert.match(rebuild.stdout, /Rebuilt the search index of 1 publisher/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("issue-key prints a new key for a publisher by slug or id, and earlier keys stop working", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const seed = await folio(dir, "seed");
    const first = /its key: (pk_\S+)/.exec(seed.stdout)?.[1];
    assert.ok(first, seed.stdout);
    const bySlug = await folio(dir, "issue-key", "--publisher=demo");
    assert.equal(bySlug.code, 0, bySlug.stderr);
    assert.match(bySlug.stdout, /^publisherId: pub_demo\nslug: demo\napiKey: pk_\S+\n/);
    assert.match(
      bySlug.stdout,
      /Earlier keys of this publisher no longer work, and its console sessions are signed out\.$/,
    );
    const second = /apiKey: (pk_\S+)/.exec(bySlug.stdout)![1];
    const byId = await folio(dir, "issue-key", "--publisher=pub_demo");
    assert.equal(byId.code, 0, byId.stderr);
    const third = /apiKey: (pk_\S+)/.exec(byId.stdout)![1];
    assert.equal(new Set([first, second, third]).size, 3);

    const unknown = await folio(dir, "issue-key", "--publisher=nobody");
    assert.deepEqual([unknown.code, unknown.stderr], [
      1,
      'folio: No publisher has the id or slug "nobody"',
    ]);
    const missing = await folio(dir, "issue-key");
    assert.deepEqual([missing.code, missing.stderr], [1, "folio: --publisher is required"]);

    const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
    try {
      const owner = async (key: string) =>
        await findPublisherIdByKeyHash(store.db, await hashSecret(key));
      assert.deepEqual(
        [await owner(first), await owner(second), await owner(third)],
        [null, null, "pub_demo"],
      );
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the CLI refuses bad input with one line and a non-zero exit, changing nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string[], RegExp][] = [
      [["create-publisher", "--name=X"], /^folio: --slug is required$/],
      [["create-publisher", "--name=X", "--slug=Bad Slug!"], /^folio: slug: must be 2 to 40/],
      [
        ["create-buyer", "--name=X", "--email=not-an-email"],
        /^folio: email: is not an email address$/,
      ],
      [
        ["export-statement", "--buyer=b", "--month=2026-13"],
        /^folio: --month must look like 2026-11/,
      ],
      [["create-buyer", "name=X"], /^folio: Unknown argument "name=X"/],
    ];
    for (const [args, message] of cases) {
      const r = await folio(dir, ...args);
      assert.equal(r.code, 1, args.join(" "));
      assert.match(r.stderr, message);
      assert.equal(r.stderr.split("\n").length, 1);
    }
    const unknown = await folio(dir, "explode");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^folio: unknown command "explode"/);
    const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
    const n = await store.db.execute(
      "SELECT (SELECT COUNT(*) FROM buyers) + (SELECT COUNT(*) FROM publishers) AS n",
    );
    store.close();
    assert.equal(Number(n.rows[0].n), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folio probe runs a round against the running service, records it, and fails when it cannot reach it", async () => {
  await using service = await startTestFolio();
  const env = { FOLIO_DATA_DIR: service.dataDir, FOLIO_BASE_URL: service.config.baseUrl };
  const port = new URL(service.url).port;
  const ok = await folioWith(env, "probe", `--url=http://127.0.0.1:${port}`);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^ok\s+health\s/m);
  assert.match(ok.stdout, /^ok\s+mcp pub_demo\s/m);
  assert.match(ok.stdout, /All 4 probe checks passed \(recorded\)\./);
  const rs = await service.store.db.execute("SELECT COUNT(*) AS n, SUM(ok) AS ok FROM probes");
  assert.deepEqual([Number(rs.rows[0].n), Number(rs.rows[0].ok)], [4, 4]);

  // Nothing listens there: every check fails, is recorded, and the exit code says so.
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const free = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const down = await folioWith(env, "probe", `--url=http://127.0.0.1:${free}`);
  assert.equal(down.code, 1);
  assert.match(down.stdout, /^FAIL\s+health\s.*request failed/m);
  assert.match(down.stderr, /^folio: 4 of 4 probe checks failed \(recorded\)$/);
});

Deno.test("reset-password sets a new console password, prints it once, ends the user's sessions, and refuses an unknown email (issue 34)", async () => {
  const dir = await Deno.makeTempDir();
  const url = `file:${dir}/folio.db`;
  try {
    assert.equal((await folio(dir, "seed")).code, 0);
    const email = "editors@demo.localhost";
    let store = await openStore(url, { now: new Date() });
    try {
      const user = await findUserByEmail(store.db, email);
      assert.ok(user);
      await insertSession(store.db, "h_before", {
        publisherId: user.publisherId,
        userId: user.id,
        csrfToken: "c",
        expiresAt: Date.now() + 3_600_000,
        now: new Date(),
      });
    } finally {
      store.close();
    }
    const reset = await folio(dir, "reset-password", `--email=${email.toUpperCase()}`);
    assert.equal(reset.code, 0, reset.stderr);
    const password = /^email: editors@demo\.localhost\npassword: (\S{20})\n/.exec(reset.stdout)
      ?.[1];
    assert.ok(password, reset.stdout);
    const byPublisher = await folio(dir, "reset-password", "--publisher=demo");
    assert.equal(byPublisher.code, 0, byPublisher.stderr);
    const latest = /password: (\S+)/.exec(byPublisher.stdout)![1];
    assert.notEqual(latest, password);
    store = await openStore(url, { now: new Date() });
    try {
      const user = await findUserByEmail(store.db, email);
      assert.ok(user && await verifyPassword(latest, user.passwordHash));
      assert.equal(await verifyPassword(password, user.passwordHash), false);
      assert.equal(await findSession(store.db, "h_before", { now: new Date() }), null);
    } finally {
      store.close();
    }
    const unknown = await folio(dir, "reset-password", "--email=nobody@example.test");
    assert.deepEqual([unknown.code, unknown.stderr, unknown.stdout], [
      1,
      'folio: No console user has the email "nobody@example.test"',
      "",
    ]);
    const noFlag = await folio(dir, "reset-password");
    assert.deepEqual([noFlag.code, noFlag.stderr], [
      1,
      "folio: --email or --publisher is required",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rotate-receipt-key adds a signing key and keeps the old ones published", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await folio(dir, "rotate-receipt-key");
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^kid: rk_\S+\n.*1 public key\(s\) are published/s);
    const second = await folio(dir, "rotate-receipt-key");
    assert.match(second.stdout, /2 public key\(s\) are published/);
    const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
    try {
      const rs = await store.db.execute(
        "SELECT kid, retired_at IS NULL AS signing FROM receipt_keys ORDER BY rowid",
      );
      assert.deepEqual(rs.rows.map((r) => Number(r.signing)), [0, 1]);
      assert.equal(String(rs.rows[1].kid), /^kid: (\S+)/.exec(second.stdout)![1]);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
