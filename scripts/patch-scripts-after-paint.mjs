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
// where they had, 0.9 s where they had not (README, "Lighthouse").
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
// With Vite's HMR runtime (`remix vite:dev`) the script stays Remix's own, as it was, without the preload links.
import { patchFile } from "./lib/patch-file.mjs";

const LABEL = "patch-scripts-after-paint";
const MARKER = "/* fanclub: the modules start after the first contentful paint (scripts/patch-scripts-after-paint.mjs) */";
const FILE = "node_modules/@remix-run/react/dist/esm/components.js";

// The script's first statement, as text: resolves after the first contentful paint (see above). Compact: the
// browser's bundle carries it too (<Scripts> is one module for both), inside the first /home's 120 KB.
const AFTER_PAINT =
  'await new Promise(g=>{const f="first-contentful-paint";if(document.visibilityState!="visible"||performance.getEntriesByName(f).length)return g();' +
  'setTimeout(g,1e3);document.addEventListener("visibilitychange",g);' +
  'try{new PerformanceObserver(l=>l.getEntriesByName(f).length&&g()).observe({type:"paint",buffered:!0})}catch{g()}});';

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
for(const h of \${JSON.stringify(fanclubPreloads)})document.head.append(Object.assign(document.createElement("link"),{rel:"modulepreload",href:h\${props.crossOrigin ? \`,crossOrigin:\${JSON.stringify(props.crossOrigin)}\` : ""}}));
document.body.append(Object.assign(document.createElement("script"),{type:"module",\${props.nonce ? \`nonce:\${JSON.stringify(props.nonce)},\` : ""}textContent:\${JSON.stringify(routeModulesScript).replace(/</g, "\\\\u003c")}}));\`;
    }
`,
  },
  {
    what: "the modulepreload links",
    from: "  let routePreloads = matches.map(match => {\n    let route = manifest.routes[match.route.id];\n    return (route.imports || []).concat([route.module]);\n  }).flat(1);\n  let preloads = isHydrated ? [] : manifest.entry.imports.concat(routePreloads);\n  return isHydrated ? null : /*#__PURE__*/React.createElement(React.Fragment, null, !enableFogOfWar ? /*#__PURE__*/React.createElement(\"link\", {\n    rel: \"modulepreload\",\n    href: manifest.url,\n    crossOrigin: props.crossOrigin\n  }) : null, /*#__PURE__*/React.createElement(\"link\", {\n    rel: \"modulepreload\",\n    href: manifest.entry.module,\n    crossOrigin: props.crossOrigin\n  }), dedupe(preloads).map(path => /*#__PURE__*/React.createElement(\"link\", {\n    key: path,\n    rel: \"modulepreload\",\n    href: path,\n    crossOrigin: props.crossOrigin\n  })), initialScripts, deferredScripts);\n",
    to: "  return isHydrated ? null : /*#__PURE__*/React.createElement(React.Fragment, null, initialScripts, deferredScripts);\n",
  },
];

if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "@remix-run/react 2.17.5" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
