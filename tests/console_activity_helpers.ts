/**
 * Fixtures for the console's activity pages (calls, intents, earnings, license requests,
 * playground): the demo publisher signed in to the console, and activity made the way agents and
 * buyers make it, through the public surfaces (REST, MCP, the marketplace).
 */
import assert from "node:assert/strict";
import { hashPassword } from "../server/domain/accounts/passwords.ts";
import { newId } from "../store/ids.ts";
import { userInsert } from "../store/users.ts";
import { hidden, Visitor } from "./console_helpers.ts";
import { json, type TestFolio } from "./helpers.ts";
import { ACCEPT } from "./mcp_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";

/** The console login given to the seeded demo publisher. */
export const DEMO_EMAIL = "console@demo.localhost";

/** The demo publisher's Host on its custom domain. */
export const DEMO_HOST = "demo.localhost";

/**
 * The demo publisher (which has a catalog) signed in to the console: the seed gives it no login,
 * so one is added to the store as sign-up would add it, then the visitor signs in with the form.
 */
export async function demoVisitor(folio: TestFolio): Promise<Visitor> {
  await addDemoLogin(folio);
  return await signIn(folio, DEMO_EMAIL);
}

/** Gives the demo publisher the console login DEMO_EMAIL with the test password. */
export async function addDemoLogin(folio: TestFolio): Promise<void> {
  await folio.store.db.execute(userInsert({
    id: newId("usr"),
    publisherId: "pub_demo",
    email: DEMO_EMAIL,
    passwordHash: await hashPassword(PASSWORD),
  }, { now: folio.clock.now() }));
}

/** A new visitor signed in through the console's sign-in form. */
export async function signIn(folio: TestFolio, email: string): Promise<Visitor> {
  const visitor = new Visitor(folio);
  const login = await visitor.get("/publisher/login");
  const home = await visitor.post("/publisher/login", {
    _csrf: hidden(login.html),
    email,
    password: PASSWORD,
    next: "/publisher",
  });
  assert.equal(home.status, 200, home.html);
  assert.equal(home.url, "/publisher");
  return visitor;
}

/** A buyer signed up on the marketplace: its id and mk_ key. */
export async function signUpBuyer(
  folio: TestFolio,
  name = "Acme AI",
): Promise<{ buyerId: string; apiKey: string }> {
  const res = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, email: `${crypto.randomUUID().slice(0, 8)}@buyer.test` }),
  });
  assert.equal(res.status, 201);
  return await json<{ buyerId: string; apiKey: string }>(res);
}

/** Ids of the demo publisher's articles with `policy`, from the management API. */
export async function demoArticleIds(
  folio: TestFolio,
  policy: "OBSERVE" | "PAYWALL",
): Promise<string[]> {
  const res = await folio.request(`/api/publisher/articles?policy=${policy}&limit=200`, {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  assert.equal(res.status, 200);
  const body = await json<{ articles: { id: string }[] }>(res);
  assert.ok(body.articles.length > 0, `the demo has ${policy} articles`);
  return body.articles.map((a) => a.id);
}

/** Reads an article on the demo's REST API with the end user's prompt; returns the status. */
export async function restRead(
  folio: TestFolio,
  id: string,
  options: { prompt: string; buyerKey?: string },
): Promise<number> {
  const headers: Record<string, string> = { "user-agent": "console-test/1.0" };
  if (options.buyerKey) headers.authorization = `Bearer ${options.buyerKey}`;
  const res = await folio.request(
    `/api/v1/articles/${encodeURIComponent(id)}?last_user_prompt=${
      encodeURIComponent(options.prompt)
    }`,
    { host: DEMO_HOST, headers },
  );
  await res.body?.cancel();
  return res.status;
}

/** Calls one MCP tool on the demo's MCP server (initialize first); returns the tool result. */
export async function mcpTool(
  folio: TestFolio,
  tool: string,
  args: Record<string, unknown>,
  options: { bearer?: string } = {},
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: ACCEPT,
    "user-agent": "console-test-mcp/1.0",
  };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const rpc = async (body: unknown, session?: string) => {
    const res = await folio.request("/api/mcp/pub_demo", {
      method: "POST",
      headers: session ? { ...headers, "mcp-session-id": session } : headers,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const data = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1] ?? "null";
    return { session: res.headers.get("mcp-session-id") ?? session, body: JSON.parse(data) };
  };
  const init = await rpc({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "console-test", version: "1" },
    },
  });
  const called = await rpc(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: tool, arguments: args } },
    init.session ?? undefined,
  );
  return called.body.result;
}

/** Waits for the call log's buffer to reach the store. */
export async function flushCalls(folio: TestFolio): Promise<void> {
  await folio.deps.callLog.flush();
}
