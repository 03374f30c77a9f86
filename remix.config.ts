import type { VitePluginConfig } from "@remix-run/dev";

/** Remix options, passed to the Remix Vite plugin by vite.config.ts. */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_singleFetch: true,
    v3_throwAbortReason: true,
  },
} satisfies VitePluginConfig;
