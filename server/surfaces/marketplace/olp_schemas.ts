/** The answers of GET and POST /api/marketplace/olp-client (olp_client_routes.ts). */
import { z } from "zod";

const clientFields = {
  clientId: z.string(),
  createdAt: z.string(),
  rotatedAt: z.string(),
};

/** GET /api/marketplace/olp-client. */
export const olpClientSchema = z.strictObject({
  client: z.strictObject(clientFields).nullable(),
  tokenEndpoint: z.string(),
});

/** POST /api/marketplace/olp-client. */
export const olpSecretSchema = z.strictObject({
  ...clientFields,
  clientSecret: z.string(),
  tokenEndpoint: z.string(),
  note: z.string(),
});
