/** x402's configuration (docs/OPERATIONS.md "x402"): off by default, all or nothing, checked. */
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

const ADDRESS = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const FULL = {
  FOLIO_X402_NETWORK: "eip155:8453",
  FOLIO_X402_ASSET: ADDRESS,
  FOLIO_X402_ASSET_NAME: "USD Coin",
  FOLIO_X402_ASSET_VERSION: "2",
  FOLIO_X402_PAY_TO: ADDRESS,
  FOLIO_X402_FACILITATOR_URL: "https://facilitator.example/x402/",
};

Deno.test("x402 config: off unless the network is set; every setting checked", () => {
  assert.equal(loadConfig({}).x402, null);
  const on = loadConfig(FULL).x402!;
  assert.equal(on.network, "eip155:8453");
  assert.equal(on.facilitatorUrl, "https://facilitator.example/x402", "the path is kept");
  assert.equal(on.rpcUrl, null);
  for (
    const [name, value, why] of [
      ["FOLIO_X402_NETWORK", "solana:mainnet", /EVM CAIP-2/],
      ["FOLIO_X402_ASSET", "0x1234", /FOLIO_X402_ASSET must be a 0x address/],
      ["FOLIO_X402_PAY_TO", "", /FOLIO_X402_PAY_TO must be a 0x address/],
      ["FOLIO_X402_ASSET_NAME", "", /FOLIO_X402_ASSET_NAME must be set/],
      ["FOLIO_X402_FACILITATOR_URL", "ftp://x", /must use http or https/],
      ["FOLIO_X402_RPC_URL", "not a url", /FOLIO_X402_RPC_URL must be an absolute/],
    ] as const
  ) {
    assert.throws(() => loadConfig({ ...FULL, [name]: value }), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, why);
      return true;
    }, name);
  }
});
