import assert from "node:assert/strict";
import { isForbiddenAddress, isLoopbackAddress, parseIp } from "./ip_ranges.ts";

const FORBIDDEN: [string, string][] = [
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["10.0.0.1", "private"],
  ["100.64.0.1", "cgnat"],
  ["100.127.255.255", "cgnat"],
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["169.254.169.254", "link_local"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.0.0.170", "reserved"],
  ["192.0.2.1", "documentation"],
  ["192.168.1.1", "private"],
  ["198.18.0.1", "benchmark"],
  ["198.19.255.255", "benchmark"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "broadcast"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["fc00::1", "unique_local"],
  ["fd00:ec2::254", "unique_local"],
  ["fe80::1", "link_local"],
  ["fe80::1%eth0", "link_local"],
  ["[fe80::1]", "link_local"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "documentation"],
  ["2001::1", "reserved"],
  ["100::1", "reserved"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:a9fe:a9fe", "link_local"],
  ["64:ff9b::7f00:1", "loopback"],
  ["64:ff9b::10.0.0.1", "private"],
  ["2002:7f00:1::", "loopback"],
  ["2002:a9fe:a9fe::1", "link_local"],
  ["::127.0.0.1", "loopback"],
  ["::0.0.0.0", "unspecified"],
];

Deno.test("isForbiddenAddress() names the range of every special-purpose address", () => {
  for (const [ip, reason] of FORBIDDEN) assert.equal(isForbiddenAddress(ip), reason, ip);
});

Deno.test("isForbiddenAddress() passes public IPv4 and IPv6 addresses", () => {
  const publics = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "198.20.0.1",
  ];
  const v6 = [
    "2606:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::",
  ];
  for (const ip of [...publics, ...v6]) assert.equal(isForbiddenAddress(ip), null, ip);
});

Deno.test("isForbiddenAddress() refuses anything that does not parse", () => {
  const bad = [
    "",
    "localhost",
    "127.1",
    "0177.0.0.1",
    "0x7f000001",
    "2130706433",
    "256.0.0.1",
    "1.2.3.4.5",
  ];
  const badV6 = ["1::2::3", "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3", "g::1", ":::"];
  for (const ip of [...bad, ...badV6]) assert.equal(isForbiddenAddress(ip), "invalid", ip);
});

Deno.test("allowLoopback opens only 127.0.0.0/8 and ::1", () => {
  const opts = { allowLoopback: true };
  for (const ip of ["127.0.0.1", "127.9.9.9", "::1", "0:0:0:0:0:0:0:1"]) {
    assert.equal(isForbiddenAddress(ip, opts), null, ip);
    assert.ok(isLoopbackAddress(ip), ip);
  }
  assert.equal(isForbiddenAddress("::ffff:127.0.0.1", opts), "ipv4_mapped");
  assert.equal(isForbiddenAddress("64:ff9b::7f00:1", opts), "ipv4_mapped");
  assert.equal(isForbiddenAddress("2002:7f00:1::", opts), "ipv4_mapped");
  assert.equal(isForbiddenAddress("::ffff:10.0.0.1", opts), "private");
  assert.equal(isForbiddenAddress("0.0.0.0", opts), "unspecified");
  assert.equal(isForbiddenAddress("::", opts), "unspecified");
  assert.equal(isForbiddenAddress("10.0.0.1", opts), "private");
  assert.equal(isForbiddenAddress("169.254.169.254", opts), "link_local");
  assert.ok(!isLoopbackAddress("::ffff:127.0.0.1"));
});

Deno.test("parseIp() expands IPv6 shorthand and embedded IPv4", () => {
  assert.deepEqual(parseIp("1.2.3.4"), new Uint8Array([1, 2, 3, 4]));
  assert.deepEqual(
    parseIp("::ffff:1.2.3.4"),
    new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]),
  );
  assert.deepEqual(parseIp("[::1]"), new Uint8Array([...new Array(15).fill(0), 1]));
  assert.deepEqual(parseIp("1:2:3:4:5:6:7:8")?.length, 16);
  assert.equal(parseIp("example.com"), null);
});
