#!/usr/bin/env node
// One reviewed patch to wrangler 3.114.17's bundler, applied on every `npm install` / `npm ci` (package.json
// "postinstall") and again before each build; running it again changes nothing.
//
// Why: wrangler bundles the Worker with esbuild's keepNames, which wraps every named function and class, nested
// ones included, in a call that redefines its `name` property when it is created. Inner functions are created on
// every call of the function around them (every React component's callbacks, on every render), so a /home render
// made hundreds of those calls: about 4% of a request in a CPU profile of the Worker. The bundle is not minified, so
// names stay as written anyway (JavaScript names `const f = () => {}` "f" by itself); only an identifier esbuild
// renames to avoid a collision between modules (`render2`) keeps the new name, and nothing in this Worker reads a
// function's name (Durable Object classes are found by their export's name). wrangler 4 has a `keep_names` setting
// for this; this version has none. Both `wrangler dev` and `wrangler deploy` bundle through it.
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: keepNames off (scripts/patch-wrangler-bundle.mjs) */";
const REPLACEMENTS = [
  {
    what: "the bundler's keepNames option",
    from: "    keepNames: true,\n    entryNames: entryName || path28.parse(entryFile).name,",
    to: `    ${MARKER}
    keepNames: false,
    entryNames: entryName || path28.parse(entryFile).name,`,
  },
];

const LABEL = "patch-wrangler-bundle";
const FILE = "node_modules/wrangler/wrangler-dist/cli.js";
if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "wrangler 3.114.17" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
