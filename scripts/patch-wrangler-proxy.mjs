#!/usr/bin/env node
// One reviewed patch to wrangler 3.114.17's ProxyWorker (the Worker `wrangler dev` runs in its proxy process, in
// front of the app's Worker, on the port the app is served at), applied on every `npm install` / `npm ci`
// (package.json "postinstall") and again before each build; running it again changes nothing. It changes nothing
// that is deployed.
//
// Why: miniflare stands in for Cloudflare's front line and compresses an answer for a client that accepts gzip or
// br. The proxy passed the client's Accept-Encoding on to the app's Worker, so the Worker's process compressed each
// answer on the app's own thread (about a sixth of a /home's thread time, a quarter of a trivial JSON answer's:
// docs/performance-log.md, 2026-11-28 morning), then the proxy process decompressed it and compressed it again for
// the client. It also parsed every HTML answer with HTMLRewriter, to append the live-reload script (only with
// `--live-reload`) and to spot a remote preview's expired token (only in an answer with status 400).
//
// Now: the proxy asks the app's Worker for its answer uncompressed (Accept-Encoding: identity) and its own
// miniflare compresses it once for the client, as before from the client's side (the same Content-Encoding for
// the same Accept-Encoding): compression happens outside the app's Worker, as in production. HTML answers go
// through HTMLRewriter only when live reload is on or the status is 400, the two cases where it changes anything.
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: the app's Worker answers uncompressed to the proxy (scripts/patch-wrangler-proxy.mjs) */";
const REPLACEMENTS = [
  {
    what: "the client's Accept-Encoding passed on to the app's Worker",
    from: `      const encoding = request.cf?.clientAcceptEncoding;
      if (encoding !== void 0)
        headers.set("Accept-Encoding", encoding);
`,
    to: `      ${MARKER}
      headers.set("Accept-Encoding", "identity");
`,
  },
  {
    what: "HTMLRewriter over every HTML answer",
    from: "        if (isHtmlResponse(res)) {",
    to: "        if (isHtmlResponse(res) && (proxyData.liveReload || res.status === 400)) {",
  },
];

const LABEL = "patch-wrangler-proxy";
const FILE = "node_modules/wrangler/wrangler-dist/ProxyWorker.js";
if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "wrangler 3.114.17" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
