/**
 * Persistence of MCP sessions (docs/DESIGN.md §6: session state lives in the store, so any node serves
 * any session). The row is keyed by the SHA-256 of the session id: the id itself is never stored,
 * so a copy of the store or of the call log cannot be replayed as a session.
 */
import type { Client } from "./db.ts";
import { UnchangedCache } from "./unchanged_cache.ts";

/** A live or ended MCP session. */
export interface McpSession {
  /** Hex SHA-256 of the `Mcp-Session-Id`. */
  idHash: string;
  publisherId: string;
  /** Meter identity of the caller at initialize (`oauth:<clientId>`, `buyer:<id>`, `sess:<digest>`). */
  identity: string;
  /** The credential's principal the session is bound to (`<clientId>` or `buyer:<id>`), or null. */
  clientId: string | null;
  protocolVersion: string;
  clientInfo: Record<string, unknown>;
  createdAt: number;
  lastSeenAt: number;
  endedAt: number | null;
}

/** Stores a new session. */
export async function insertMcpSession(
  db: Client,
  publisherId: string,
  s: Omit<McpSession, "publisherId" | "createdAt" | "lastSeenAt" | "endedAt"> & { now: Date },
): Promise<void> {
  const now = s.now.getTime();
  await db.execute({
    sql: `INSERT INTO mcp_sessions (id, publisher_id, identity, client_id, protocol_version,
            client_info, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      s.idHash,
      publisherId,
      s.identity,
      s.clientId,
      s.protocolVersion,
      JSON.stringify(s.clientInfo),
      now,
      now,
    ],
  });
}

/**
 * Sessions as read, kept while nothing is committed (every MCP request reads its session: 4.7%
 * of a get_article's CPU, issue 39); any commit, a touch or an end by any node included, reads
 * again.
 */
const sessions = new UnchangedCache<Readonly<McpSession> | null>(10_000);

/** The publisher's session with this id hash (ended ones included; callers decide). */
export function findMcpSession(
  db: Client,
  publisherId: string,
  idHash: string,
): Promise<Readonly<McpSession> | null> {
  return sessions.get(
    db,
    `${publisherId}\n${idHash}`,
    () => readMcpSession(db, publisherId, idHash),
  );
}

async function readMcpSession(
  db: Client,
  publisherId: string,
  idHash: string,
): Promise<Readonly<McpSession> | null> {
  const rs = await db.execute({
    sql: `SELECT id, publisher_id, identity, client_id, protocol_version, client_info, created_at,
            last_seen_at, ended_at FROM mcp_sessions WHERE publisher_id = ? AND id = ?`,
    args: [publisherId, idHash],
  });
  const r = rs.rows[0];
  if (!r) return null;
  return Object.freeze({
    idHash: String(r.id),
    publisherId: String(r.publisher_id),
    identity: String(r.identity),
    clientId: r.client_id === null ? null : String(r.client_id),
    protocolVersion: String(r.protocol_version),
    clientInfo: JSON.parse(String(r.client_info)),
    createdAt: Number(r.created_at),
    lastSeenAt: Number(r.last_seen_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
  });
}

/** Records activity on a live session. */
export async function touchMcpSession(
  db: Client,
  publisherId: string,
  idHash: string,
  options: { now: Date },
): Promise<void> {
  await db.execute({
    sql: `UPDATE mcp_sessions SET last_seen_at = ? WHERE publisher_id = ? AND id = ?
          AND ended_at IS NULL`,
    args: [options.now.getTime(), publisherId, idHash],
  });
}

/** Ends a session; returns false when it was not live. */
export async function endMcpSession(
  db: Client,
  publisherId: string,
  idHash: string,
  options: { now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE mcp_sessions SET ended_at = ? WHERE publisher_id = ? AND id = ?
          AND ended_at IS NULL`,
    args: [options.now.getTime(), publisherId, idHash],
  });
  return rs.rowsAffected > 0;
}
