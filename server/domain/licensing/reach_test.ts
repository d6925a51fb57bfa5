import assert from "node:assert/strict";
import { DEFAULT_TOGGLES } from "../../../store/publishers.ts";
import {
  offered,
  openToAnonymous,
  type Presented,
  reach,
  type ReachFacts,
  type ReachSurface,
  type Refusal,
} from "./reach.ts";

type Toggles = ReachFacts["toggles"];

function publisher(toggles: Partial<Toggles>, customDomain: string | null = "news.example") {
  return { toggles: { ...DEFAULT_TOGGLES, ...toggles }, customDomain };
}

const OPEN = publisher({ publicRest: true, a2a: true });
const LOCKED = publisher({ publicRest: true, a2a: true, requireAuth: true });
const PRIVATE = publisher({});
const NO_DOMAIN = publisher({ publicRest: true, a2a: true }, null);

interface Case {
  name: string;
  p: ReachFacts;
  surface: ReachSurface;
  presented: Presented;
  want: Refusal | null;
}

const CASES: Case[] = [
  // REST: docs/SPEC.md "Publisher REST API".
  {
    name: "anonymous REST on a public custom domain",
    p: OPEN,
    surface: "rest",
    presented: "none",
    want: null,
  },
  {
    name: "anonymous REST with public REST off",
    p: PRIVATE,
    surface: "rest",
    presented: "none",
    want: "rest_not_public",
  },
  {
    name: "anonymous REST without a custom domain",
    p: NO_DOMAIN,
    surface: "rest",
    presented: "none",
    want: "rest_not_public",
  },
  {
    name: "a buyer key reaches REST with public REST off",
    p: PRIVATE,
    surface: "rest",
    presented: "buyer_key",
    want: null,
  },
  {
    name: "a buyer key reaches REST without a custom domain",
    p: NO_DOMAIN,
    surface: "rest",
    presented: "buyer_key",
    want: null,
  },
  {
    name: "Require auth does not lock REST",
    p: LOCKED,
    surface: "rest",
    presented: "none",
    want: null,
  },
  {
    name: "an access token is not a REST credential",
    p: OPEN,
    surface: "rest",
    presented: "access_token",
    want: "credential_not_accepted",
  },
  // MCP: always on; Require auth refuses anonymous callers only.
  { name: "anonymous MCP", p: PRIVATE, surface: "mcp", presented: "none", want: null },
  {
    name: "anonymous MCP with Require auth",
    p: LOCKED,
    surface: "mcp",
    presented: "none",
    want: "auth_required",
  },
  {
    name: "an access token on MCP with Require auth",
    p: LOCKED,
    surface: "mcp",
    presented: "access_token",
    want: null,
  },
  {
    name: "a buyer key on MCP with Require auth",
    p: LOCKED,
    surface: "mcp",
    presented: "buyer_key",
    want: null,
  },
  // A2A: off unless enabled, whoever asks; then like MCP.
  {
    name: "A2A off refuses anonymous callers",
    p: PRIVATE,
    surface: "a2a",
    presented: "none",
    want: "surface_off",
  },
  {
    name: "A2A off refuses buyers too",
    p: PRIVATE,
    surface: "a2a",
    presented: "buyer_key",
    want: "surface_off",
  },
  {
    name: "A2A off refuses tokens too",
    p: PRIVATE,
    surface: "a2a",
    presented: "access_token",
    want: "surface_off",
  },
  { name: "anonymous A2A", p: OPEN, surface: "a2a", presented: "none", want: null },
  {
    name: "anonymous A2A with Require auth",
    p: LOCKED,
    surface: "a2a",
    presented: "none",
    want: "auth_required",
  },
  {
    name: "an access token on A2A with Require auth",
    p: LOCKED,
    surface: "a2a",
    presented: "access_token",
    want: null,
  },
  {
    name: "A2A needs no custom domain",
    p: NO_DOMAIN,
    surface: "a2a",
    presented: "none",
    want: null,
  },
];

for (const c of CASES) {
  Deno.test(`reach(): ${c.name}`, () => {
    assert.equal(reach(c.p, c.surface, c.presented), c.want);
  });
}

Deno.test("offered() and openToAnonymous() describe the gate's answers", () => {
  assert.deepEqual(
    [
      offered(PRIVATE, "a2a"),
      offered(OPEN, "a2a"),
      offered(PRIVATE, "rest"),
      offered(LOCKED, "mcp"),
    ],
    [false, true, true, true],
  );
  assert.deepEqual(
    [
      openToAnonymous(LOCKED, "mcp"),
      openToAnonymous(OPEN, "mcp"),
      openToAnonymous(NO_DOMAIN, "rest"),
    ],
    [false, true, false],
  );
});
