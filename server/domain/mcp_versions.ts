/**
 * The MCP protocol versions this server speaks: the SDK's own lists (`LATEST_PROTOCOL_VERSION`,
 * `SUPPORTED_PROTOCOL_VERSIONS` of @modelcontextprotocol/sdk 1.32.2 types.js), copied so that the
 * start graph does not reach the SDK, which loads on the first MCP request
 * (docs/decisions/operations.md, "What the start fetches"); tests/mcp_wire_test.ts checks they
 * still equal the SDK's.
 */

/** The newest version, answered to a client asking for one this server does not speak. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Every version this server speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];
