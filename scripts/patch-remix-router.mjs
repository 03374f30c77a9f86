#!/usr/bin/env node
// One reviewed patch to @remix-run/router 1.23.3 (Remix 2.17.5's router) as the Worker runs it, applied on every
// `npm install` / `npm ci` (package.json "postinstall") and again before each build; running it again changes
// nothing.
//
// Why: every match of a URL against the route tree (several per page render: the server's route match, the data
// routes, <Scripts>, the lazy route discovery's partial manifest) calls compilePath for each route, and compilePath
// builds the route's RegExp anew each time, with a warning message built by three string replacements even when
// no warning is due. A CPU profile of a /home render in workerd put about 6% of the whole request in compilePath
// alone. Its result depends only on its three arguments (the route's path pattern, caseSensitive, end) and is only
// read by its one caller (matchPath: a RegExp without the g flag keeps no state, the params list is read), so it is
// memoized by those arguments. The patterns come from the app's route tree, not from URLs, so the cache holds a few
// dozen entries; it stops growing at 1,000 all the same.
//
// matchRoutesImpl's answers are kept too, per route array (a WeakMap) and location: the server's route match and the
// static handler's both match the build's own route arrays, the same on every request, and each match flattened and
// ranked the whole route tree anew before walking it (about 4% of a /home render in workerd, 2026-11-27; React's
// render matches arrays made for each request, which are never asked twice and drop out with them). Callers get
// their own array of their own match objects and params each time (the loaders receive those params), sharing only
// the route objects, which every match shares anyway. At most 500 locations an array: paths come from clients.
//
// Only the CommonJS build is patched: it is the one wrangler bundles into the Worker. The browser gets the ES module
// build as published: there compilePath runs a few times per navigation, not per request, and the first /home's
// JavaScript has no bytes to spare (README, "Performance").
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: compilePath and matchRoutes memoized (scripts/patch-remix-router.mjs) */";
const REPLACEMENTS = [
  {
    what: "compilePath's declaration",
    from: "function compilePath(path, caseSensitive, end) {",
    to: `${MARKER}
var fanclubCompiledPaths = new Map();
function compilePath(path, caseSensitive, end) {
  var key = path + "\\u0000" + (caseSensitive ? 1 : 0) + (end === void 0 || end ? 1 : 0);
  var compiled = fanclubCompiledPaths.get(key);
  if (compiled === void 0) {
    compiled = compilePathUncached(path, caseSensitive, end);
    if (fanclubCompiledPaths.size < 1000) fanclubCompiledPaths.set(key, compiled);
  }
  return compiled;
}
function compilePathUncached(path, caseSensitive, end) {`,
  },
  {
    what: "matchRoutesImpl's declaration",
    from: "function matchRoutesImpl(routes, locationArg, basename, allowPartial) {",
    to: `var fanclubMatchesByRoutes = new WeakMap();
function matchRoutesImpl(routes, locationArg, basename, allowPartial) {
  var location = typeof locationArg === "string" ? parsePath(locationArg) : locationArg;
  var key = (location.pathname || "/") + "\\u0000" + (basename || "") + "\\u0000" + (allowPartial ? 1 : 0);
  var kept = fanclubMatchesByRoutes.get(routes);
  if (kept === void 0) fanclubMatchesByRoutes.set(routes, (kept = new Map()));
  var matches = kept.get(key);
  if (matches === void 0) {
    matches = matchRoutesImplUncached(routes, location, basename, allowPartial);
    if (kept.size < 500) kept.set(key, matches);
  }
  return matches === null ? null : matches.map(function (match) {
    return Object.assign({}, match, { params: Object.assign({}, match.params) });
  });
}
function matchRoutesImplUncached(routes, locationArg, basename, allowPartial) {`,
  },
];

const LABEL = "patch-remix-router";
const FILE = "node_modules/@remix-run/router/dist/router.cjs.js";
if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "@remix-run/router 1.23.3" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
