import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import remixOptions from "./remix.config";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

const workerDirectory = fileURLToPath(new URL("./worker/", import.meta.url));
const serverBuildDirectory = fileURLToPath(new URL("./build/server/", import.meta.url));

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [remix(remixOptions)],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
    mainFields: ["browser", "module", "main"],
  },
  ssr: {
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  build: {
    rollupOptions: isSsrBuild
      ? {
          // The server build leaves worker/ modules as imports: wrangler bundles them once, shared by the API
          // and the loaders (one copy of module state, one copy of the code).
          external: (id: string) => id.startsWith(workerDirectory),
          output: {
            paths: (id: string) => (id.startsWith(workerDirectory) ? relative(serverBuildDirectory, id) : id),
          },
        }
      : { output: { manualChunks: clientChunkOf } },
  },
}));

/**
 * The small modules every signed-in page needs (session, updates, the layout, shared components) and those of a
 * feed (post list and card) travel as two files rather than twenty: one request and one gzip stream each,
 * which is what keeps the first /home under QUALITY.md's 120 KB.
 */
const APP_DIRECTORY = fileURLToPath(new URL("./app/", import.meta.url));
const CORE = /^(lib\/(session|updates|api|token|offline|navigation|use-signed-in|user-channel|nonce)\.tsx?|components\/(shell\/[^/]+|page|logo|forms|local-time|spinner|service-worker)\.tsx?|i18n\/(languages|options|client|resources)\.ts)$/;
const FEED = /^(lib\/(timeline|use-post-list|dollars)\.tsx?|components\/posts\/(post-card|post-list|post-actions|lazy)\.tsx)$/;

function clientChunkOf(id: string): string | undefined {
  if (!id.startsWith(APP_DIRECTORY)) return undefined;
  const path = id.slice(APP_DIRECTORY.length);
  if (CORE.test(path)) return "app-core";
  if (FEED.test(path)) return "feed";
  return undefined;
}
