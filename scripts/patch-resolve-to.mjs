#!/usr/bin/env node
// Three reviewed patches to how the server render resolves a link's path: @remix-run/router 1.23.3 (resolveTo, its
// CommonJS build, the one wrangler bundles), react-router 6.30.4 (useResolvedPath, its production UMD build, the
// one react-router's "main" gives the Worker) and react-router-dom 6.30.4 (the static router's encodeLocation, in
// server.js, below), applied on every `npm install` / `npm ci` (package.json "postinstall")
// and again before each build; running them again changes nothing.
//
// Why: every <Link> of a page resolves its path twice as it renders (useHref for its href, useLinkClickHandler for
// its click), and each time useResolvedPath first writes the route matches' pathnames as JSON, parses them back and
// walks the path segment by segment (resolvePathname). A /home has about eighty links (the shell's, and each post's
// author, time and comments): a CPU profile of /home under 50 connections in workerd put 7.6% of the Worker's thread
// in useResolvedPath (2026-11-28). Every link the app renders is an absolute path, and an absolute path resolves
// the same whatever the matches are: resolveTo reads them only to find where a relative path starts from. So:
//   - resolveTo answers an absolute path whose segments are none of "", "." and ".." with its pathname as it is, and
//     its search and hash as the walk normalizes them, which is what the walk gives for such a path
//     (tests/unit/resolve-to.test.ts compares both ways on random paths);
//   - useResolvedPath writes the matches as JSON only for a path that is not absolute (its memo's key stays the same
//     for a relative one; an absolute one gets an empty key and no matches, which resolveTo does not read for it).
//
// The browser gets the ES module builds as published: there a link resolves on a navigation, not per request, and
// the first /home's JavaScript has no bytes to spare.
import { patchFile } from "./lib/patch-file.mjs";

const LABEL = "patch-resolve-to";

const ROUTER_MARKER = "/* fanclub: absolute paths without dot segments resolved as they are (scripts/patch-resolve-to.mjs) */";
const router = patchFile({
  label: LABEL,
  relativePath: "node_modules/@remix-run/router/dist/router.cjs.js",
  marker: ROUTER_MARKER,
  version: "@remix-run/router 1.23.3",
  replacements: [
    {
      what: "resolveTo's declaration",
      from: "function resolveTo(toArg, routePathnames, locationPathname, isPathRelative) {",
      to: `${ROUTER_MARKER}
var fanclubWalkedPathname = /\\/\\/|(^|\\/)\\.\\.?(\\/|$)/;
function resolveTo(toArg, routePathnames, locationPathname, isPathRelative) {
  if (typeof toArg === "string" && toArg.charCodeAt(0) === 47) {
    var to = parsePath(toArg);
    if (!fanclubWalkedPathname.test(to.pathname)) return { pathname: to.pathname, search: normalizeSearch(to.search), hash: normalizeHash(to.hash) };
  }
  return resolveToByWalking(toArg, routePathnames, locationPathname, isPathRelative);
}
function resolveToByWalking(toArg, routePathnames, locationPathname, isPathRelative) {`,
    },
  ],
});

const HOOK_MARKER = "/* fanclub: no route matches as JSON for an absolute path (scripts/patch-resolve-to.mjs) */";
const hook = patchFile({
  label: LABEL,
  relativePath: "node_modules/react-router/dist/umd/react-router.production.min.js",
  marker: HOOK_MARKER,
  version: "react-router 6.30.4",
  replacements: [
    {
      what: "useResolvedPath's body",
      from: 'l=JSON.stringify(r.UNSAFE_getResolveToMatches(i,o.v7_relativeSplatPath));return a.useMemo(()=>r.resolveTo(e,JSON.parse(l),u,"path"===n),[e,l,u,n])}',
      to: `l="string"==typeof e&&47===e.charCodeAt(0)?"":JSON.stringify(r.UNSAFE_getResolveToMatches(i,o.v7_relativeSplatPath));return a.useMemo(()=>r.resolveTo(e,""===l?[]:JSON.parse(l),u,"path"===n),[e,l,u,n])}${HOOK_MARKER}`,
    },
  ],
});

// The static router's encodeLocation (react-router-dom/server.js) parses every NavLink's path, and each route
// match's, as a URL against http://localhost, to percent-encode it: 2.8% of the Worker's thread under a load of
// /settings (the shell's navigation is NavLinks). A path of characters the URL parser keeps as they are (no "%",
// space, quote, backslash, non-ASCII…; no "." or ".." segment, no "//" start) is its own encoding: it is split at
// its "?" and "#" instead (tests/unit/resolve-to.test.ts compares both ways on random paths).
const ENCODE_MARKER = "/* fanclub: a plain path is its own encoding (scripts/patch-resolve-to.mjs) */";
const encode = patchFile({
  label: LABEL,
  relativePath: "node_modules/react-router-dom/server.js",
  marker: ENCODE_MARKER,
  version: "react-router-dom 6.30.4",
  replacements: [
    {
      what: "encodeLocation's declaration",
      from: `function encodeLocation(to) {
  let href = typeof to === "string" ? to : reactRouterDom.createPath(to);
`,
      to: `${ENCODE_MARKER}
const fanclubPlainHref = /^\\/(?!\\/)([A-Za-z0-9\\-._~!$&()*+,;=:@\\/]*)(\\?[A-Za-z0-9\\-._~!$&()*+,;=:@\\/?]*)?(#[A-Za-z0-9\\-._~!$&()*+,;=:@\\/?]*)?$/;
const fanclubDotSegment = /\\/\\.\\.?(?=\\/|$)/;
function encodeLocation(to) {
  let href = typeof to === "string" ? to : reactRouterDom.createPath(to);
  let plain = fanclubPlainHref.exec(href);
  if (plain !== null && !fanclubDotSegment.test(href.slice(0, 1 + plain[1].length))) {
    return {
      pathname: "/" + plain[1],
      search: plain[2] === undefined || plain[2] === "?" ? "" : plain[2],
      hash: plain[3] === undefined || plain[3] === "#" ? "" : plain[3]
    };
  }
`,
    },
  ],
});

if (!router || !hook || !encode) {
  console.error(`${LABEL}: @remix-run/router, react-router or react-router-dom is missing; run npm install first`);
  process.exit(1);
}
