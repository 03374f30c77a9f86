#!/usr/bin/env node
// One reviewed patch to react-dom 18.3.1's streaming server renderer (react-dom/server's browser build, the one the
// Worker renders pages with: `renderToReadableStream`), applied on every `npm install` / `npm ci` (package.json
// "postinstall") and again before each build; running it again changes nothing.
//
// Why: the renderer turns every piece of text it writes (a tag's name, an attribute, an escaped text node: thousands
// per page) into bytes on its own, with one TextEncoder.encode call and one Uint8Array each, then copies them into
// 512-byte buffers. A CPU profile of a /home render in workerd put about a fifth of the whole request in those encode
// calls alone. Patched, the pieces stay strings, each flush joins them and encodes the result once: the same bytes
// reach the stream, in fewer and larger chunks (one per flush; a flush is when the shell or a Suspense boundary is
// ready, so streaming is unchanged). Every write goes through the four functions replaced here (writeChunk,
// completeWriting and the two stringToChunk variants) and the two places that start a flush; nothing else reads a
// chunk's bytes. tests/unit/stream-render.test.ts renders the same trees with the patched build and the unpatched
// development build and compares the bytes.
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: chunks kept as strings, encoded once per flush (scripts/patch-react-dom-server.mjs) */";
const REPLACEMENTS = [
  {
    what: "writeChunk",
    from: "function p(a,b){if(0!==b.length)if(512<b.length)0<n&&(a.enqueue(new Uint8Array(l.buffer,0,n)),l=new Uint8Array(512),n=0),a.enqueue(b);else{var c=l.length-n;c<b.length&&(0===c?a.enqueue(l):(l.set(b.subarray(0,c),n),a.enqueue(l),b=b.subarray(c)),l=new Uint8Array(512),n=0);l.set(b,n);n+=b.length}}",
    to: `${MARKER}function p(a,b){l+=b}`,
  },
  {
    what: "completeWriting",
    from: "function ba(a){l&&0<n&&(a.enqueue(new Uint8Array(l.buffer,0,n)),l=null,n=0)}",
    to: "function ba(a){l&&a.enqueue(ca.encode(l));l=null}",
  },
  {
    what: "stringToChunk and stringToPrecomputedChunk",
    from: "function u(a){return ca.encode(a)}function w(a){return ca.encode(a)}",
    to: "function u(a){return a}function w(a){return a}",
  },
  {
    what: "the start of a flush",
    from: "function fd(a,b){l=new Uint8Array(512);n=0;",
    to: 'function fd(a,b){l="";n=0;',
  },
  {
    what: "the second buffer of a flush",
    from: "ba(b);l=new Uint8Array(512);n=0;",
    to: 'ba(b);l="";n=0;',
  },
];

const LABEL = "patch-react-dom-server";
const FILE = "node_modules/react-dom/cjs/react-dom-server.browser.production.min.js";
if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "react-dom 18.3.1" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
