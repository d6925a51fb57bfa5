import assert from "node:assert/strict";
import { boundaryOf, MultipartError, parseMultipart, type Part, partText } from "./multipart.ts";

/** A FormData as the platform serializes it: its body bytes and boundary. */
async function serialize(form: FormData): Promise<{ body: Uint8Array; boundary: string }> {
  const req = new Request("http://x/", { method: "POST", body: form });
  const boundary = boundaryOf(req.headers.get("content-type")!);
  assert.ok(boundary);
  return { body: new Uint8Array(await req.arrayBuffer()), boundary };
}

/** What Request.formData() makes of the same body, in the parser's terms. */
async function platform(body: Uint8Array, boundary: string) {
  const form = await new Request("http://x/", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: body as Uint8Array<ArrayBuffer>,
  }).formData();
  const out = [];
  for (const [name, v] of form.entries()) {
    out.push(
      typeof v === "string"
        ? { name, filename: null, text: v }
        : { name, filename: v.name, type: v.type, bytes: new Uint8Array(await v.arrayBuffer()) },
    );
  }
  return out;
}

function ours(parts: Part[]) {
  return parts.map((p) =>
    p.filename === null
      ? { name: p.name, filename: null, text: partText(p) }
      : { name: p.name, filename: p.filename, type: p.contentType, bytes: new Uint8Array(p.bytes) }
  );
}

Deno.test("parseMultipart() reads what Request.formData() reads, without copying the files", async () => {
  const form = new FormData();
  form.set("title", "Tides — a “sea” book");
  form.set("empty", "");
  // Content that looks like a boundary, CRLFs and dashes must stay the file's own bytes.
  const tricky = new TextEncoder().encode("a\r\n--not-the-boundary\r\n\r\n-\r\n--\r");
  form.set("file", new File([tricky], "sea.md", { type: "text/markdown" }));
  form.append("more", new File([new Uint8Array([0, 255, 13, 10, 45, 45])], "b.bin"));
  form.append("empty-file", new File([], "none.txt", { type: "text/plain" }));
  form.append("title", "second title");
  const { body, boundary } = await serialize(form);
  const parts = parseMultipart(body, boundary);
  assert.deepEqual(ours(parts), await platform(body, boundary));
  const file = parts.find((p) => p.name === "file")!;
  assert.equal(file.bytes.buffer, body.buffer, "the file is a view into the body");
});

Deno.test("parseMultipart() takes padding, quoted parameters and parts with no name", () => {
  const body = new TextEncoder().encode(
    "--b\t \r\n" +
      'Content-Disposition: form-data; name="a"; filename="x;y.txt"\r\n\r\n' +
      "one\r\n--b\r\n" +
      "Content-Disposition: form-data\r\n\r\n" +
      "nameless\r\n--b\r\n" +
      "Content-Disposition: form-data; name=b\r\nContent-Type: text/csv\r\n\r\n" +
      "two\r\n--b--\r\nepilogue",
  );
  const parts = parseMultipart(body, "b");
  assert.deepEqual(
    parts.map((p) => [p.name, p.filename, p.contentType, partText(p)]),
    [["a", "x;y.txt", "application/octet-stream", "one"], ["b", null, "text/csv", "two"]],
  );
});

Deno.test('parseMultipart() treats an empty file input (filename="") as a field', () => {
  const body = new TextEncoder().encode(
    '--b\r\nContent-Disposition: form-data; name="file"; filename=""\r\n' +
      "Content-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n",
  );
  assert.deepEqual(parseMultipart(body, "b").map((p) => [p.name, p.filename]), [["file", null]]);
});

Deno.test("parseMultipart() refuses a body without its boundary or cut short", () => {
  const cut = new TextEncoder().encode(
    '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nhalf a fi',
  );
  for (const body of [new TextEncoder().encode("no boundary here"), cut]) {
    assert.throws(() => parseMultipart(body, "b"), MultipartError);
  }
  const headless = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="a"');
  assert.throws(() => parseMultipart(headless, "b"), MultipartError);
  // A preamble (RFC 2046 allows one; no browser or HTTP client sends it) is refused, not guessed.
  const preamble = new TextEncoder().encode(
    'preamble\r\n--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--',
  );
  assert.throws(() => parseMultipart(preamble, "b"), MultipartError);
});

Deno.test("boundaryOf() reads quoted and bare boundaries", () => {
  assert.equal(boundaryOf('multipart/form-data; boundary="a b:c"'), "a b:c");
  assert.equal(boundaryOf("multipart/form-data;boundary=----x1; charset=utf-8"), "----x1");
  assert.equal(boundaryOf("multipart/form-data"), null);
});
