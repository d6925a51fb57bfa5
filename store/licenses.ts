/** Persistence of licenses: what a buyer holds for a publisher. */
import type { UseCase } from "../server/licensing/mod.ts";
import type { Client } from "./db.ts";

/** The use cases covered by the buyer's active licenses for a publisher. */
export async function heldUseCases(
  db: Client,
  buyerId: string,
  publisherId: string,
): Promise<UseCase[]> {
  const rs = await db.execute({
    sql: `SELECT use_cases FROM licenses
          WHERE buyer_id = ? AND publisher_id = ? AND state = 'active'`,
    args: [buyerId, publisherId],
  });
  const uses = new Set<UseCase>();
  for (const r of rs.rows) for (const u of JSON.parse(String(r.use_cases))) uses.add(u);
  return [...uses];
}
