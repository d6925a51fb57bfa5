/** Bare ampersands and HTML entities in real feeds (xml_repair.ts). */
import assert from "node:assert/strict";
import { BareAmpersands, HTML_ENTITIES } from "./xml_repair.ts";

const whole = (text: string) => {
  const r = new BareAmpersands();
  return r.push(text) + r.end();
};

const SAMPLE = `<a href="/x?a=1&b=2&amp;c=3">Q&A &nbsp; &#38; &#x26; &lol9; & ; &;</a>` +
  `<!-- a & b --><![CDATA[ x & y &amp; ]]><t>R&D</t><![CDATA[]]>&<!---->&`;
const REPAIRED = `<a href="/x?a=1&amp;b=2&amp;c=3">Q&amp;A &nbsp; &#38; &#x26; &lol9; &amp; ; ` +
  `&amp;;</a><!-- a & b --><![CDATA[ x & y &amp; ]]><t>R&amp;D</t><![CDATA[]]>&amp;<!---->&amp;`;

Deno.test("bare ampersands become &amp;; references, CDATA and comments are left as written", () => {
  assert.equal(whole(SAMPLE), REPAIRED);
  assert.equal(whole(""), "");
  assert.equal(whole("no markup at all"), "no markup at all");
  // An unterminated section keeps the rest literal, as the parser will read it.
  assert.equal(whole("<![CDATA[ a & b"), "<![CDATA[ a & b");
});

Deno.test("the repair is the same however the text is cut into pieces", () => {
  const long = SAMPLE.repeat(3) + "x".repeat(100) + SAMPLE;
  const expected = whole(long);
  for (let cut = 0; cut <= long.length; cut++) {
    const r = new BareAmpersands();
    assert.equal(
      r.push(long.slice(0, cut)) + r.push(long.slice(cut)) + r.end(),
      expected,
      `cut ${cut}`,
    );
  }
  for (const size of [1, 2, 3, 7, 41]) {
    const r = new BareAmpersands();
    let out = "";
    for (let i = 0; i < long.length; i += size) out += r.push(long.slice(i, i + size));
    assert.equal(out + r.end(), expected, `pieces of ${size}`);
  }
});

Deno.test("HTML's named entities resolve; anything else stays undefined", () => {
  assert.equal(HTML_ENTITIES.amp, "&");
  assert.equal(HTML_ENTITIES.nbsp, "\u00a0");
  assert.equal(HTML_ENTITIES.rsquo, "\u2019");
  assert.equal(HTML_ENTITIES.NotNestedGreaterGreater, "\u2aa2\u0338");
  for (
    const name of ["lol9", "xxe", "constructor", "__proto__", "toString", "a".repeat(40), "#38"]
  ) {
    assert.equal(HTML_ENTITIES[name], undefined, name);
  }
});
