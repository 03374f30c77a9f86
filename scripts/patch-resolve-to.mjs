#!/usr/bin/env node
// Two reviewed patches to how the server render resolves a link's path: @remix-run/router 1.23.3 (resolveTo, its
// CommonJS build, the one wrangler bundles) and react-router 6.30.4 (useResolvedPath, its production UMD build, the
// one react-router's "main" gives the Worker), applied on every `npm install` / `npm ci` (package.json "postinstall")
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

if (!router || !hook) {
  console.error(`${LABEL}: @remix-run/router or react-router is missing; run npm install first`);
  process.exit(1);
}
