#!/usr/bin/env node
// One reviewed patch to Remix 2.17.5's <Scripts> (@remix-run/react's ES module build, which both the browser's
// bundle and the Worker's use), applied on every `npm install` / `npm ci` (package.json "postinstall") and again
// before each build; running it again changes nothing.
//
// Why: a page is complete as the server renders it (its stylesheet is inlined), and nothing of its JavaScript is
// needed for its first paint. Remix writes a <link rel="modulepreload"> for each of the page's modules and a
// module script that imports them, so the browser fetches and evaluates them as soon as it reads them, and
// whenever they are at hand before the first frame (a service worker's copy, a fast network, loopback) the first
// paint waits for the modules' evaluation and the hydration's first steps. Lighthouse's simulation (Lantern)
// counts every script that had loaded before the paint it observed as blocking that paint, and then stretches
// their download over a slow 4G network: its simulated first and largest paint of `/home` was 2.2 s in the runs
// where they had, 0.9 s where they had not (README, "Lighthouse's LCP").
//
// The patch starts the modules after the page's first contentful paint:
//   - <Scripts> renders no <link rel="modulepreload"> (on the server and in the hydration alike, so the hydrated
//     tree matches the HTML);
//   - its module script first waits for the paint timing entry "first-contentful-paint" (at once when there is
//     one, when the page is not visible, or after a second if none comes: a page with nothing to paint), then adds
//     the same modulepreload links to <head> and appends Remix's own module script, unchanged, with the page's
//     nonce. That script's static imports are evaluated before it sets window.__remixRouteModules, as before: the
//     route modules import the entry's chunk, whose hydration must find them set (importing them one by one with
//     import() let the entry's first task run before the last of them had arrived).
// The cost: the downloads start one paint later than the end of the HTML, where Remix wrote its links (they are
// at the end of <body>), in exchange for a first paint that never waits for JavaScript.
//
// Only when Vite's HMR runtime is absent (a production build): `remix vite:dev` keeps Remix's own script.
import { patchFile } from "./lib/patch-file.mjs";

const LABEL = "patch-scripts-after-paint";
const MARKER = "/* fanclub: the modules start after the first contentful paint (scripts/patch-scripts-after-paint.mjs) */";
const FILE = "node_modules/@remix-run/react/dist/esm/components.js";

// The script's first statement, as text: resolves after the first contentful paint (see above).
const AFTER_PAINT = [
  "await new Promise((go) => {",
  '  if (document.visibilityState !== "visible" || performance.getEntriesByName("first-contentful-paint").length > 0) return go();',
  "  setTimeout(go, 1000);",
  '  document.addEventListener("visibilitychange", go, { once: true });',
  "  try {",
  '    new PerformanceObserver((list, observer) => { if (list.getEntriesByName("first-contentful-paint").length > 0) { observer.disconnect(); go(); } }).observe({ type: "paint", buffered: true });',
  "  } catch { go(); }",
  "});",
].join("\\n");

const REPLACEMENTS = [
  {
    what: "the end of the route modules' script",
    from: "\nimport(${JSON.stringify(manifest.entry.module)});`;\n",
    to: `\nimport(\${JSON.stringify(manifest.entry.module)});\`;
    ${MARKER}
    if (isStatic && !(manifest.hmr && manifest.hmr.runtime)) {
      let fanclubPreloads = dedupe((enableFogOfWar ? [] : [manifest.url]).concat([manifest.entry.module], manifest.entry.imports, matches.map(match => {
        let route = manifest.routes[match.route.id];
        return (route.imports || []).concat([route.module]);
      }).flat(1)));
      routeModulesScript = \`${AFTER_PAINT}
for (const href of \${JSON.stringify(fanclubPreloads)}) {
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = href;\${props.crossOrigin ? \`\\n  link.crossOrigin = \${JSON.stringify(props.crossOrigin)};\` : ""}
  document.head.append(link);
}
const script = document.createElement("script");
script.type = "module";\${props.nonce ? \`\\nscript.nonce = \${JSON.stringify(props.nonce)};\` : ""}
script.textContent = \${JSON.stringify(routeModulesScript).replace(/</g, "\\\\u003c")};
document.body.append(script);\`;
    }
`,
  },
  {
    what: "the modulepreload links",
    from: "  return isHydrated ? null : /*#__PURE__*/React.createElement(React.Fragment, null, !enableFogOfWar ? /*#__PURE__*/React.createElement(\"link\", {",
    to: "  if (!(manifest.hmr && manifest.hmr.runtime)) return isHydrated ? null : /*#__PURE__*/React.createElement(React.Fragment, null, initialScripts, deferredScripts);\n  return isHydrated ? null : /*#__PURE__*/React.createElement(React.Fragment, null, !enableFogOfWar ? /*#__PURE__*/React.createElement(\"link\", {",
  },
];

if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "@remix-run/react 2.17.5" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
