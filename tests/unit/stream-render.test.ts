import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createElement as h, Suspense, type ReactNode } from "react";
import type * as ReactDOMServer from "react-dom/server";
import { describe, expect, it } from "vitest";

// react-dom/server's browser build, as the Worker renders pages with it: the production file, patched by
// scripts/patch-react-dom-server.mjs (chunks kept as strings, encoded once per flush), and the development file, which
// the patch leaves alone, as the reference the bytes must equal.
const require = createRequire(import.meta.url);
const cjs = join(dirname(require.resolve("react-dom/package.json")), "cjs");
const patchedFile = join(cjs, "react-dom-server.browser.production.min.js");
const patched = require(patchedFile) as typeof ReactDOMServer;
const reference = require(join(cjs, "react-dom-server.browser.development.js")) as typeof ReactDOMServer;

/** Every byte of a render, and how many chunks the stream delivered them in. */
async function render(server: typeof ReactDOMServer, tree: ReactNode, options?: Parameters<typeof ReactDOMServer.renderToReadableStream>[1]) {
  const stream = await server.renderToReadableStream(tree, options);
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

/** A part that suspends until `ready` settles: the shell is flushed first, the part's HTML and script in a later flush. */
function Later({ ready, text }: { ready: { promise: Promise<void>; done: boolean }; text: string }) {
  if (!ready.done) throw ready.promise;
  return h("p", { className: "later" }, text);
}

function page(ready: { promise: Promise<void>; done: boolean }) {
  const longText = "Long caption ✨ ".repeat(200); // over the 512-byte buffer the unpatched build fills
  return h(
    "html",
    { lang: "ar", dir: "rtl" },
    h("head", null, h("title", null, "Fanclub — مرحبا"), h("style", { dangerouslySetInnerHTML: { __html: `.a{color:red}${" ".repeat(2000)}` } })),
    h(
      "body",
      null,
      h("h1", { "data-x": 'quote " and <tag> & amp' }, "Escaped <b>not bold</b> & “quotes” — 日本語 😀"),
      h("ol", null, ...Array.from({ length: 300 }, (_, i) => h("li", { key: i, style: { color: i % 2 ? "red" : "blue" } }, `Post ${i}: `, h("time", { dateTime: "2026-11-26T10:00:00Z" }, "Nov 26"), " ✓"))),
      h("p", null, longText),
      h(Suspense, { fallback: h("span", null, "Loading…") }, h(Later, { ready, text: "Arrived later — وصل لاحقا 🎉" })),
    ),
  );
}

function deferred() {
  const ready = { done: false, promise: Promise.resolve() };
  ready.promise = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => {
    ready.done = true;
  });
  return ready;
}

describe("the streaming server render with chunks encoded once per flush", () => {
  it("is the patched build", () => {
    expect(readFileSync(patchedFile, "utf8")).toContain("encoded once per flush (scripts/patch-react-dom-server.mjs)");
  });

  it("writes the same bytes as the unpatched renderer: multi-byte text, escaping, long pieces, a boundary completed later", async () => {
    const options = { bootstrapScriptContent: "window.booted = true;", nonce: "n0nce" };
    const ours = await render(patched, page(deferred()), options);
    const theirs = await render(reference, page(deferred()), options);
    const html = ours.bytes.toString("utf8");
    expect(html).toContain("Escaped &lt;b&gt;not bold&lt;/b&gt; &amp; “quotes” — 日本語 😀");
    expect(html).toContain("Arrived later — وصل لاحقا 🎉");
    expect(html).toContain('<script nonce="n0nce">window.booted = true;</script>');
    expect(ours.bytes.equals(theirs.bytes)).toBe(true);
    // The shell, then the boundary's completion: two flushes, one chunk each (the unpatched build sends a chunk
    // per 512 bytes).
    expect(ours.chunks).toBe(2);
  });

  it("renders a page without a pending boundary as one chunk, the same bytes", async () => {
    const done = { done: true, promise: Promise.resolve() };
    const ours = await render(patched, page(done));
    const theirs = await render(reference, page(done));
    expect(ours.bytes.equals(theirs.bytes)).toBe(true);
    expect(ours.chunks).toBe(1);
  });
});
