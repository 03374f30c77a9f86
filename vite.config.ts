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
      : {},
  },
}));
