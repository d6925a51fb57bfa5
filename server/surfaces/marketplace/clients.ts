/**
 * POST /api/marketplace/clients: a buyer claims an MCP install (an OAuth client from dynamic
 * registration) so its MCP traffic is licensed and billed to the buyer (docs/DESIGN.md section 4).
 * Pending license requests that install made before it had a buyer now name the buyer.
 */
import { bindClient } from "../../../store/buyer_clients.ts";
import type { Client } from "../../../store/db.ts";
import { attachBuyerToRequests } from "../../../store/license_requests.ts";
import { AppError, notFound } from "../../platform/errors.ts";

/** Binds `clientId` to the buyer; `created` is false when it was already the buyer's. */
export async function registerClient(
  db: Client,
  buyerId: string,
  clientId: string,
): Promise<{ clientId: string; created: boolean }> {
  const tx = await db.transaction("write");
  try {
    const result = await bindClient(tx, buyerId, clientId);
    if (result === "unknown_client") throw notFound("OAuth client");
    if (result === "bound_elsewhere") {
      throw new AppError(409, "client_taken", "That OAuth client is registered to another buyer");
    }
    await attachBuyerToRequests(tx, `oauth:${clientId}`, buyerId);
    await tx.commit();
    return { clientId, created: result === "bound" };
  } finally {
    tx.close();
  }
}
