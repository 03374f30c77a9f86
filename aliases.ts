import { fileURLToPath } from "node:url";

/**
 * The import aliases of tsconfig.json "paths", for Vite and Vitest (wrangler's esbuild reads tsconfig.json
 * itself): `~/` is the Remix app, `@shared/` what the page and the Worker both use, `@worker/` the Worker.
 */
export const ALIASES = {
  "~": fileURLToPath(new URL("./app", import.meta.url)),
  "@shared": fileURLToPath(new URL("./shared", import.meta.url)),
  "@worker": fileURLToPath(new URL("./worker", import.meta.url)),
};
