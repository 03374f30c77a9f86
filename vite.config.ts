import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import { ALIASES } from "./aliases";
import remixOptions from "./remix.config";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

const workerDirectory = fileURLToPath(new URL("./worker/", import.meta.url));
const serverBuildDirectory = fileURLToPath(new URL("./build/server/", import.meta.url));
const sharedDirectory = fileURLToPath(new URL("./shared/", import.meta.url));
/** Modules that wrangler bundles with the Worker: the server build imports them rather than copying them. */
const bundledByWrangler = (id: string) => id.startsWith(workerDirectory) || id.startsWith(sharedDirectory);

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [remix(remixOptions), ...(isSsrBuild ? [] : [thirdPartyLicenses(), compileHints()])],
  resolve: {
    alias: [
      ...Object.entries(ALIASES).map(([find, replacement]) => ({ find, replacement })),
      // workbox-window's "module" entry is its ES5 build (2.3 KB gzip); the ES2017 one is 1.4 KB, and every
      // browser that can run this app runs it.
      {
        find: /^workbox-window$/,
        replacement: fileURLToPath(
          new URL("./node_modules/workbox-window/build/workbox-window.prod.mjs", import.meta.url),
        ),
      },
      // The part of react-i18next this app uses, for the page and the server render alike (app/i18n/react-i18next.ts):
      // 1.1 KB gzip of the first /home.
      { find: /^react-i18next$/, replacement: fileURLToPath(new URL("./app/i18n/react-i18next.ts", import.meta.url)) },
    ],
    mainFields: ["browser", "module", "main"],
  },
  ssr: {
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  build: {
    // The browsers of Vite's default targets, with Chrome and Edge 91 (2021) instead of 87/88: esbuild rewrites every
    // `a?.b` into `a == null ? void 0 : a.b` for those two (a V8 bug fixed in 91); kept as written, the first /home
    // is 0.3 KB gzip lighter. Without Vite's "es2020" beside them, what all four run is kept as written too: class
    // fields, which "es2020" had rewritten into calls to a helper (0.1 KB gzip).
    target: ["edge91", "firefox78", "chrome91", "safari14"],
    // Terser packs the client a few per cent tighter than esbuild (gzip included): what a phone downloads first.
    minify: isSsrBuild ? false : "terser",
    // Modern output (ES2020 modules, as every supported browser runs) and three compress passes: 0.2 KB gzip less.
    // License comments (9 KB raw, 0.5 KB gzip of the first /home) go to /third-party-licenses.txt instead: the
    // full license of every package shipped to the browser (thirdPartyLicenses below).
    // `pure_getters: true`: reading a property has no side effect, even of what may be null (terser's default,
    // "strict", keeps `x.y` when x could be null, for the TypeError). Nothing shipped reads a property for the
    // throw; it lets terser drop what only named hooks in React Router's development messages (the enums of
    // hook names whose readers are gone): 0.6 KB gzip of the first /home.
    // `safari10: false`: Vite turns on terser's workarounds for Safari 10 and 11 (a loop's `let` names, `await`),
    // which none of the targets above needs: 0.2 KB gzip of the first /home.
    terserOptions: {
      ecma: 2020,
      module: true,
      safari10: false,
      compress: { passes: 3, pure_getters: true },
      format: { comments: false },
    },
    // The CommonJS packages (React's) run hoisted into their chunk, as ES modules do, except those in a require cycle
    // or required conditionally ("auto", Rollup's recommended setting), where the order they run in depends on
    // the require: the default wraps every one in a function run at its first require. 0.15 KB gzip of the first /home.
    commonjsOptions: isSsrBuild ? undefined : { strictRequires: "auto" },
    rollupOptions: isSsrBuild
      ? {
          // The server build leaves worker/ and shared/ modules as imports: wrangler bundles them once, shared by
          // the API and the loaders (one copy of module state, one copy of the code).
          // Only once resolved: an aliased id (`@shared/…`) is matched as the file it names, extension included.
          external: (id: string, _importer: string | undefined, isResolved: boolean) =>
            isResolved && bundledByWrangler(id),
          // Every such import, relative or aliased, is written as a path from the output directory (build/server/)
          // and Rollup re-bases it onto the chunk that imports it.
          makeAbsoluteExternalsRelative: true,
          output: { paths: (id: string) => (bundledByWrangler(id) ? relative(serverBuildDirectory, id) : id) },
        }
      : { output: { manualChunks: clientChunkOf } },
  },
}));

/**
 * The small modules every page needs (the entry, root, session, updates, offline, the service worker) travel with
 * the framework in the entry's file, and those of the layout of signed-in pages and profiles with those of a feed
 * (post list and card) in one more: a few files rather than twenty, one request and one gzip stream each, which is
 * what keeps the first /home under QUALITY.md's 120 KB with workbox-window loaded after it.
 */
const ROOT_DIRECTORY = fileURLToPath(new URL("./", import.meta.url));
const CORE =
  /^(app\/root\.tsx|app\/entry\.client\.tsx|app\/tailwind\.css\?url|app\/lib\/(session|updates|api|api-shapes|token|offline|offline-copies|outbox|outbox-store|outbox-sender|comment-shape|user-channel|nonce|idle)\.tsx?|app\/components\/(logo|notice|spinner|service-worker|route-error|unless-load-fails)\.tsx?|app\/sw\/policy\.ts|app\/i18n\/(client|meta)\.ts|shared\/i18n\/(languages|options)\.ts|shared\/(user-channel-events|shape|money-pattern)\.ts)$/;
/**
 * The layout of the signed-in screens and profiles (sidebar, bottom bar, right column, outbox tray), what their
 * pages share, and the feed: a file of their own, so the landing page and the sign-in screens neither download nor
 * evaluate them.
 */
const SHELL =
  /^(app\/routes\/_shell\.tsx|app\/lib\/(navigation|email-verified)\.ts|app\/components\/(shell\/(?!menu-popover|user-search-results)[^/]+|page|local-time|outbox-tray|offline-notice)\.tsx?)$/;
const FEED =
  /^(app\/lib\/(timeline|use-post-list)\.tsx?|app\/components\/posts\/(post-card|post-list|post-actions|lazy)\.tsx|shared\/money\.ts)$/;

function clientChunkOf(id: string): string | undefined {
  if (!id.startsWith(ROOT_DIRECTORY) || id.includes("/node_modules/")) return undefined;
  const path = id.slice(ROOT_DIRECTORY.length);
  if (CORE.test(path)) return "app-core";
  if (SHELL.test(path)) return "shell";
  if (FEED.test(path)) return "shell";
  return undefined;
}

/** V8's explicit compile hint (Chrome 136 and later; other engines read a comment): compile every function now. */
const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/**
 * Every client chunk starts with COMPILE_HINT, after minification (terser drops comments). V8 compiles a script's
 * functions lazily, on the main thread, the first time each is called; almost every function of these chunks is
 * called while the page starts (React DOM, the router, the route modules) or when the lazy chunk that holds it is
 * asked for. With the hint V8 compiles them all eagerly on the background thread that already parses the script
 * while it downloads: in Chromium's traces of a first /home at 4× CPU the main thread's JavaScript is about half
 * as long with the hint as without (medians of eight interleaved loads).
 * A source map, where one is made, moves down a line.
 */
function compileHints(): Plugin {
  return {
    name: "compile-hints",
    apply: "build",
    enforce: "post",
    generateBundle: {
      // After Vite's own: its preload helper's dependency map (`__vite__mapDeps`) goes on top of a chunk then.
      order: "post",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk") continue;
          chunk.code = COMPILE_HINT + chunk.code;
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        }
      },
    },
  };
}

const LICENSES_FILE = "/third-party-licenses.txt";

/** The package a module id of node_modules belongs to ("react-dom", "@remix-run/router"), else null. */
function packageOf(id: string): string | null {
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id.slice(id.lastIndexOf("/node_modules/")));
  return match ? match[1]! : null;
}

/**
 * The client's third-party notices: the license text of every package that has code in a client chunk, written
 * to build/client/third-party-licenses.txt (served at LICENSES_FILE), since the minified files carry none.
 */
function thirdPartyLicenses(): Plugin {
  return {
    name: "third-party-licenses",
    apply: "build",
    generateBundle(_options, bundle) {
      const packages = new Set<string>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        for (const id of Object.keys(chunk.modules)) {
          const name = id.includes("/node_modules/") ? packageOf(id) : null;
          if (name) packages.add(name);
        }
      }
      const sections = [...packages].sort().map((name) => {
        const directory = join(ROOT_DIRECTORY, "node_modules", name);
        const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
          version: string;
          license?: string;
        };
        const file = existsSync(directory)
          ? readdirSync(directory).find((entry) => /^(licen[sc]e|copying)(\.|$)/i.test(entry))
          : undefined;
        const text = file
          ? readFileSync(join(directory, file), "utf8").trim()
          : `License: ${manifest.license ?? "see the package"}`;
        return `${name}@${manifest.version}\n\n${text}`;
      });
      this.emitFile({
        type: "asset",
        fileName: LICENSES_FILE.slice(1),
        source: `${sections.join("\n\n" + "-".repeat(72) + "\n\n")}\n`,
      });
    },
  };
}
