/**
 * MCP sessions kept in the store (MCP transport spec "Session Management"): an id issued at
 * initialize, required afterwards (400 without it), 404 once unknown, ended or idle too long, and
 * bound to the credential that created it (docs/TEST-PLAN.md 2.11-2.14).
 */
import {
  endMcpSession,
  findMcpSession,
  insertMcpSession,
  type McpSession,
  touchMcpSession,
} from "../../../store/mcp_sessions.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { hashSecret, randomBase62 } from "../../platform/secrets.ts";
import type { Credential } from "../../platform/identity.ts";
import { McpHttpError, unauthorized } from "./guard.ts";

/** Sessions idle this long are over (the client re-initializes). */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, to keep writes off most requests. */
const TOUCH_EVERY_MS = 60 * 1000;

/** A new session id: 190 random bits of visible ASCII (`^[\x21-\x7E]+$`). */
export function newSessionId(): string {
  return `mcs_${randomBase62(32)}`;
}

/** The meter identity of an anonymous session: a digest, so logs never carry the id itself. */
export function sessionIdentity(idHash: string): string {
  return `sess:${idHash.slice(0, 32)}`;
}

/** Records a session created by initialize. */
export async function openSession(
  db: Client,
  publisher: Publisher,
  s: {
    id: string;
    credential: Credential | null;
    protocolVersion: string;
    clientInfo: Record<string, unknown>;
    now: Date;
  },
): Promise<string> {
  const idHash = await hashSecret(s.id);
  await insertMcpSession(db, publisher.id, {
    idHash,
    identity: s.credential?.identity ?? sessionIdentity(idHash),
    clientId: s.credential?.principal ?? null,
    protocolVersion: s.protocolVersion,
    clientInfo: s.clientInfo,
    now: s.now,
  });
  return idHash;
}

/**
 * The live session named by `Mcp-Session-Id`, checked against the caller's credential. A session
 * never authenticates by itself: one bound to a client needs that client's credential again
 * (401 without one, 404 with another client's, so another client learns nothing about it).
 */
export async function resumeSession(
  db: Client,
  publisher: Publisher,
  req: { header: string | null; credential: Credential | null; metadataUrl: string; now: Date },
): Promise<McpSession> {
  if (!req.header) {
    throw new McpHttpError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  }
  // Built only when thrown: an Error captures its stack (11 µs of every MCP request, issue 15).
  const notFound = () => new McpHttpError(404, -32001, "Session not found");
  if (!/^[\x21-\x7E]{1,128}$/.test(req.header)) throw notFound();
  const session = await findMcpSession(db, publisher.id, await hashSecret(req.header));
  const now = req.now.getTime();
  if (!session || session.endedAt !== null || now - session.lastSeenAt > SESSION_IDLE_MS) {
    throw notFound();
  }
  const principal = req.credential?.principal ?? null;
  if (session.clientId !== null && principal === null) {
    throw unauthorized(req.metadataUrl);
  }
  if (session.clientId !== principal) throw notFound();
  if (now - session.lastSeenAt > TOUCH_EVERY_MS) {
    await touchMcpSession(db, publisher.id, session.idHash, { now: req.now });
  }
  return session;
}

/** Ends a session (DELETE). */
export async function closeSession(
  db: Client,
  publisher: Publisher,
  session: McpSession,
  options: { now: Date },
): Promise<void> {
  await endMcpSession(db, publisher.id, session.idHash, options);
}
