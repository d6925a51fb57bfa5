/**
 * Ready-to-paste connection snippets for one publisher (issue 12 part 1): MCP client settings for
 * Claude Desktop, Cursor and VS Code, curl for the REST API, and the A2A agent card. The key is
 * never in them (the portal cannot show it again): each names where it goes.
 */

/** Where a publisher answers, as the catalog lists it. */
export interface SnippetSource {
  publisherId: string;
  slug: string;
  mcpEndpoint: string;
  restApi: string | null;
  a2aCardUrl: string | null;
}

/** One snippet: what it is for, where it goes, and the text to paste. */
export interface Snippet {
  id: string;
  title: string;
  where: string;
  code: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The REST base of a publisher: its own host, else the platform host with a buyer key. */
export function restBase(p: SnippetSource): string {
  return p.restApi ?? `${new URL(p.mcpEndpoint).origin}/api/v1/publishers/${p.publisherId}`;
}

/** Every snippet for `p`. */
export function snippetsFor(p: SnippetSource): Snippet[] {
  const name = `folio-${p.slug}`;
  const rest = restBase(p);
  const out: Snippet[] = [
    {
      id: "claude",
      title: "Claude Desktop",
      // Claude Desktop's config file starts local (stdio) servers only; mcp-remote bridges to
      // streamable HTTP and sends the header.
      where: "claude_desktop_config.json (Settings → Developer → Edit Config); needs Node for npx",
      code: json({
        mcpServers: {
          [name]: {
            command: "npx",
            args: ["-y", "mcp-remote", p.mcpEndpoint, "--header", "Authorization:${FOLIO_AUTH}"],
            env: { FOLIO_AUTH: "Bearer YOUR_FOLIO_API_KEY" },
          },
        },
      }),
    },
    {
      id: "cursor",
      title: "Cursor",
      where: "~/.cursor/mcp.json, with FOLIO_API_KEY set in the environment Cursor starts from",
      code: json({
        mcpServers: {
          [name]: {
            url: p.mcpEndpoint,
            headers: { Authorization: "Bearer ${env:FOLIO_API_KEY}" },
          },
        },
      }),
    },
    {
      id: "vscode",
      title: "VS Code",
      where: ".vscode/mcp.json; VS Code asks for the key once and stores it encrypted",
      code: json({
        inputs: [{
          type: "promptString",
          id: "folio-api-key",
          description: "Folio buyer API key (mk_…)",
          password: true,
        }],
        servers: {
          [name]: {
            type: "http",
            url: p.mcpEndpoint,
            headers: { Authorization: "Bearer ${input:folio-api-key}" },
          },
        },
      }),
    },
    {
      id: "rest",
      title: "REST (curl)",
      where: "a shell with FOLIO_API_KEY set; the Idempotency-Key makes a retried read free",
      code: [
        "# Search",
        `curl -H "Authorization: Bearer $FOLIO_API_KEY" \\`,
        `  "${rest}/articles/search?q=energy&limit=5"`,
        "",
        "# Read one article (an id from the search), charged at most once per Idempotency-Key",
        `curl -H "Authorization: Bearer $FOLIO_API_KEY" \\`,
        `  -H "Idempotency-Key: $(uuidgen)" \\`,
        `  "${rest}/articles/ARTICLE_ID?last_user_prompt=What+does+it+say"`,
      ].join("\n"),
    },
  ];
  if (p.a2aCardUrl) {
    out.push({
      id: "a2a",
      title: "A2A agent card",
      where: "any A2A client; send Authorization: Bearer with your key on its calls",
      code: p.a2aCardUrl,
    });
  }
  return out;
}
