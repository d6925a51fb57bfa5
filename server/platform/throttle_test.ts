import assert from "node:assert/strict";
import { addressBlock } from "./throttle.ts";

Deno.test("a sign-in budget belongs to an IPv4 address, or to an IPv6 address's /64", () => {
  assert.equal(addressBlock("203.0.113.9"), "203.0.113.9");
  assert.equal(addressBlock("::ffff:203.0.113.9"), "203.0.113.9");
  assert.equal(addressBlock("2001:db8:0:1:aaaa::1"), "2001:db8:0:1::/64");
  assert.equal(addressBlock("2001:DB8:0:1:bbbb:cccc:dddd:eeee"), "2001:db8:0:1::/64");
  assert.equal(addressBlock("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(addressBlock("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.equal(addressBlock("::1"), "0:0:0:0::/64");
  assert.equal(addressBlock("unknown"), "unknown");
  assert.equal(addressBlock("1:2:3"), "1:2:3", "not an address: kept as it is");
});
