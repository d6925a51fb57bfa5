/** Migration 0096: models trained on TF-IDF before the log-entropy weights are retrained. */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { loadMigrations, migrate } from "../store/db.ts";
import { upsertArticle } from "../store/articles.ts";
import { needsTraining, trainModel } from "../search/models.ts";
import { deserializeLsa } from "../search/lsa.ts";

Deno.test("0096: a model trained before log-entropy weights is due again, and retrains with them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-migration-" });
  const db = createClient({ url: `file:${dir}/folio.db` });
  try {
    const all = await loadMigrations();
    const now = new Date("2026-12-07T12:00:00Z");
    await migrate(db, all.filter((m) => m.version < 96), { now });
    await db.execute({
      sql:
        "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES ('pub_a', 'a', 'A', ?, ?)",
      args: [now.getTime(), now.getTime()],
    });
    const topics = ["harbour levy", "ferry timetable", "school budget", "river flood"];
    for (let i = 0; i < 12; i++) {
      const topic = topics[i % topics.length];
      await upsertArticle(db, "pub_a", {
        url: `https://a.example/${i}`,
        title: `${topic} ${i}`,
        body: `The council discussed the ${topic} again. ${topic} figures rose in week ${i}.`,
      }, { now });
    }
    // A model as an older build stored it: trained on all 12 articles, so not due by growth.
    await db.execute({
      sql: `INSERT INTO search_models (publisher_id, embedder, version, docs, model, created_at)
            VALUES ('pub_a', 'lsa:1:old', 1, 12, x'00', ?)`,
      args: [now.getTime()],
    });
    assert.equal(await needsTraining(db, "pub_a"), false);
    await migrate(db, all, { now });
    assert.equal(await needsTraining(db, "pub_a"), true, "the migration makes it due");
    const trained = await trainModel(db, "pub_a", { now });
    assert.ok(trained);
    assert.equal(await needsTraining(db, "pub_a"), false, "and the retrain settles it");
    const stored = await db.execute("SELECT model FROM search_models WHERE publisher_id = 'pub_a'");
    const bytes = new Uint8Array(stored.rows[0].model as ArrayBuffer);
    const header = JSON.parse(
      new TextDecoder().decode(
        bytes.subarray(4, 4 + new DataView(bytes.buffer).getUint32(0, true)),
      ),
    );
    assert.equal(header.weighting, "log-entropy");
    // A term in every article weighs nothing next to one in a single article.
    const model = deserializeLsa(bytes);
    const weight = (t: string) => model.weight[model.index.get(t)!];
    assert.ok(weight("council") < 0.1, `council ${weight("council")}`);
    assert.ok(weight("ferri") > weight("council"));
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
