/**
 * A remote store's client (`libsql://`, `http(s)://`): @libsql/client's, with its Hrana, WebSocket
 * and Node types tree. Only `openStore` loads it, for a remote URL, so an embedded start neither
 * fetches nor loads that tree (docs/decisions/operations.md, "What the start fetches").
 */
export { createClient } from "@libsql/client";
