#!/usr/bin/env node
// One reviewed patch to @remix-run/router 1.23.3 (Remix 2.17.5's router) as the browser runs it (the ES module
// build, which Vite bundles), applied on every `npm install` / `npm ci` (package.json "postinstall") and again before
// each build; running it again changes nothing.
//
// Why: after the hydration, Remix's lazy route discovery fetches the routes of the links the page shows
// (`/__manifest`) and hands them to `router.patchRoutes`, which adds them and then calls `updateState({})`: a router
// state with nothing changed, to which React Router answers by rendering the whole page again from its
// RouterProvider down, every link, every time and every route's component included, since each route's context is a
// new object in each such render. On `/home` that is about 200 components (73 links, 20 dates), 107–153 ms at 4× CPU
// in a phone's profile, on every first page, for nothing the page shows: the new routes are other paths'.
//
// The patch keeps the new identity of the route array (`dataRoutes = [...dataRoutes]`) and leaves out the state
// update, which is what the router itself does when it discovers routes during a navigation (`discoverRoutes`: the
// navigation's own state update, at its end, is the one React renders). Whatever React reads from `router.routes`
// (React Router's route matching, Remix's <PrefetchPageLinks>) is read again at the next state update: the next
// navigation, fetcher or revalidation, which is the first time a discovered route can matter. The current page's
// routes are never among the discovered ones: the server sent every route matching the page's URL with the page.
//
// Only the ES module build is patched: the Worker (the CommonJS build, scripts/patch-remix-router.mjs) never
// discovers routes.
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: a discovery's patch renders nothing by itself (scripts/patch-router-discovery.mjs) */";
const REPLACEMENTS = [
  {
    what: "patchRoutes' state update",
    from: `    if (isNonHMR) {
      dataRoutes = [...dataRoutes];
      updateState({});
    }`,
    to: `    if (isNonHMR) {
      dataRoutes = [...dataRoutes];
      ${MARKER}
    }`,
  },
];

const LABEL = "patch-router-discovery";
const FILE = "node_modules/@remix-run/router/dist/router.js";
if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "@remix-run/router 1.23.3" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
