import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
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
  plugins: [remix(remixOptions)],
  resolve: {
    alias: [
      ...Object.entries(ALIASES).map(([find, replacement]) => ({ find, replacement })),
      // workbox-window's "module" entry is its ES5 build (2.3 KB gzip); the ES2017 one is 1.4 KB, and every
      // browser that can run this app runs it.
      { find: /^workbox-window$/, replacement: fileURLToPath(new URL("./node_modules/workbox-window/build/workbox-window.prod.mjs", import.meta.url)) },
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
    // Terser packs the client a few per cent tighter than esbuild (gzip included): what a phone downloads first.
    minify: isSsrBuild ? false : "terser",
    // Modern output (ES2020 modules, as every supported browser runs) and three compress passes: 0.2 KB gzip less.
    terserOptions: { ecma: 2020, module: true, compress: { passes: 3 } },
    rollupOptions: isSsrBuild
      ? {
          // The server build leaves worker/ and shared/ modules as imports: wrangler bundles them once, shared by
          // the API and the loaders (one copy of module state, one copy of the code).
          // Only once resolved: an aliased id (`@shared/…`) is matched as the file it names, extension included.
          external: (id: string, _importer: string | undefined, isResolved: boolean) => isResolved && bundledByWrangler(id),
          // Every such import, relative or aliased, is written as a path from the output directory (build/server/)
          // and Rollup re-bases it onto the chunk that imports it.
          makeAbsoluteExternalsRelative: true,
          output: { paths: (id: string) => (bundledByWrangler(id) ? relative(serverBuildDirectory, id) : id) },
        }
      : { output: { manualChunks: clientChunkOf } },
  },
}));

/**
 * The small modules every signed-in page needs (session, updates, the layout, shared components) and those of a
 * feed (post list and card) travel as two files rather than twenty: one request and one gzip stream each,
 * which is what keeps the first /home under QUALITY.md's 120 KB.
 */
const ROOT_DIRECTORY = fileURLToPath(new URL("./", import.meta.url));
const CORE = /^(app\/lib\/(session|updates|api|api-shapes|token|offline|offline-copies|outbox|outbox-sender|comment-shape|navigation|use-signed-in|user-channel|nonce)\.tsx?|app\/components\/(shell\/[^/]+|page|logo|notice|local-time|spinner|service-worker|outbox-tray|offline-notice)\.tsx?|app\/sw\/policy\.ts|app\/i18n\/(client|meta)\.ts|shared\/i18n\/(languages|options)\.ts|shared\/(user-channel-events|shape)\.ts)$/;
const FEED = /^(app\/lib\/(timeline|use-post-list)\.tsx?|app\/components\/posts\/(post-card|post-list|post-actions|lazy)\.tsx|shared\/money\.ts)$/;

function clientChunkOf(id: string): string | undefined {
  if (!id.startsWith(ROOT_DIRECTORY) || id.includes("/node_modules/")) return undefined;
  const path = id.slice(ROOT_DIRECTORY.length);
  if (CORE.test(path)) return "app-core";
  if (FEED.test(path)) return "feed";
  return undefined;
}
