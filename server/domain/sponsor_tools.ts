/**
 * The sponsor tools' names and words (docs/SPEC.md "MCP server"): the catalog a publisher picks
 * from in the management API and the console. The tools themselves are MCP code
 * (server/surfaces/mcp/sponsor_tools.ts) and take their name, title and description from here.
 */

/** One sponsor tool as a publisher sees it: `id` is the MCP tool name. */
export interface SponsorToolInfo {
  id: string;
  title: string;
  description: string;
}

/** Every sponsor tool, in tools/list order. */
export const SPONSOR_TOOL_LIST: readonly SponsorToolInfo[] = [
  {
    id: "cite_article",
    title: "Cite an article",
    description:
      "Format a citation for one of this publisher's articles (APA, MLA or Chicago), from its title, author, date and URL.",
  },
  {
    id: "publisher_info",
    title: "About this publisher",
    description:
      "Who this publisher is, what its license grants, its per-use prices and how to ask for more rights.",
  },
];

/** The ids a publisher may enable (`publisher.sponsorTools`). */
export const SPONSOR_TOOL_IDS = SPONSOR_TOOL_LIST.map((t) => t.id) as [string, ...string[]];

/** The words of one sponsor tool, as defineTool() takes them. */
export function sponsorToolWords(id: string): { name: string; title: string; description: string } {
  const info = SPONSOR_TOOL_LIST.find((t) => t.id === id);
  if (!info) throw new Error(`Unknown sponsor tool: ${id}`);
  return { name: info.id, title: info.title, description: info.description };
}
