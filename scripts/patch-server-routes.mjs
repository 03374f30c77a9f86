#!/usr/bin/env node
// Two reviewed patches to the server render's route objects, @remix-run/react 2.17.5 (RemixServer, its ES module
// build, the one wrangler bundles) and react-router-dom 6.30.4 (createStaticRouter, its CommonJS build, the one that
// RemixServer's import resolves to in the Worker's bundle), applied on every `npm install` / `npm ci` (package.json
// "postinstall") and again before each build; running them again changes nothing.
//
// Why: every page render built the whole route tree twice anew (RemixServer's route objects from the build's
// manifest, then createStaticRouter's data routes from those), and React's render then matched the URL against those
// fresh arrays three to four times (<DataRoutes>, and the lazy route discovery's partial manifest for the page's path
// and each of its parents). scripts/patch-remix-router.mjs keeps matchRoutes' answers per route array, but an array
// made for one request is never asked twice, so each of those matches flattened and ranked the 36 routes again: a
// CPU profile of `/settings` under load in workerd put 7–8% of the Worker's thread in building and matching them
// (2026-11-27). The trees depend only on the build: RemixServer's on the manifest's routes, the route modules and
// SPA mode (its `future` argument is not read), the data routes on the routes they are made from. So each is kept:
// RemixServer's per manifest routes object (the build's own, `build.assets.routes`, the same on every request),
// checked against the route modules it was made with (a new build brings a new manifest anyway); the data routes
// and their id → route map per routes array. Nothing on the server writes to a route object after it is made (the
// static router's navigation methods all throw), so sharing them between requests shares nothing a request
// changes; the matches, loader data and location stay per request. tests/unit/server-routes.test.ts.
//
// The browser does not get these files' patched code: it hydrates with createBrowserRouter, and RemixServer is not
// in its bundle.
import { patchFile } from "./lib/patch-file.mjs";

const LABEL = "patch-server-routes";

const REMIX_MARKER =
  "/* fanclub: route objects kept per build (scripts/patch-server-routes.mjs) */";
const remix = patchFile({
  label: LABEL,
  relativePath: "node_modules/@remix-run/react/dist/esm/server.js",
  marker: REMIX_MARKER,
  version: "@remix-run/react 2.17.5",
  replacements: [
    {
      what: "RemixServer's declaration",
      from: "function RemixServer({",
      to: `${REMIX_MARKER}
const fanclubServerRoutes = new WeakMap();
function fanclubServerRoutesFor(manifestRoutes, routeModules, future, isSpaMode) {
  let kept = fanclubServerRoutes.get(manifestRoutes);
  if (kept === undefined || kept.isSpaMode !== isSpaMode || kept.modules.some(([id, module]) => routeModules[id] !== module)) {
    kept = {
      isSpaMode,
      modules: Object.keys(manifestRoutes).map((id) => [id, routeModules[id]]),
      routes: createServerRoutes(manifestRoutes, routeModules, future, isSpaMode),
    };
    fanclubServerRoutes.set(manifestRoutes, kept);
  }
  return kept.routes;
}
function RemixServer({`,
    },
    {
      what: "RemixServer's route objects",
      from: "let routes = createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);",
      to: "let routes = fanclubServerRoutesFor(manifest.routes, routeModules, context.future, context.isSpaMode);",
    },
  ],
});

const ROUTER_MARKER =
  "/* fanclub: data routes kept per routes array (scripts/patch-server-routes.mjs) */";
const router = patchFile({
  label: LABEL,
  relativePath: "node_modules/react-router-dom/server.js",
  marker: ROUTER_MARKER,
  version: "react-router-dom 6.30.4",
  replacements: [
    {
      what: "createStaticRouter's data routes",
      from: `function createStaticRouter(routes, context, opts = {}) {
  let manifest = {};
  let dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest);`,
      to: `${ROUTER_MARKER}
const fanclubDataRoutes = new WeakMap();
function createStaticRouter(routes, context, opts = {}) {
  let kept = fanclubDataRoutes.get(routes);
  if (kept === undefined) {
    let manifest = {};
    kept = { manifest, dataRoutes: router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest) };
    fanclubDataRoutes.set(routes, kept);
  }
  let { manifest, dataRoutes } = kept;`,
    },
  ],
});

if (!remix || !router) {
  console.error(
    `${LABEL}: @remix-run/react or react-router-dom is missing; run npm install first`
  );
  process.exit(1);
}
