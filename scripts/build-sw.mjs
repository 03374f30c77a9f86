#!/usr/bin/env node
// Builds the service worker (app/sw/service-worker.ts) into build/client/sw.js, after `remix vite:build`, and the
// offline page's script (app/sw/offline-page.ts) into build/client/offline.js, which it precaches.
// The precache manifest (scripts/lib/precache-manifest.mjs) replaces self.__WB_MANIFEST.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { precacheManifest } from "./lib/precache-manifest.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const clientDirectory = join(root, "build", "client");
const PLACEHOLDER = "self.__WB_MANIFEST";

/** `entry` (from the repository root) bundled into one minified script for the browser, with `define`'s values. */
async function buildScript(entry, name, define) {
  const output = await build({
    configFile: false,
    root,
    logLevel: "warn",
    resolve: { alias: { "~": join(root, "app"), "@shared": join(root, "shared"), "@worker": join(root, "worker") } },
    define,
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      lib: { entry: join(root, entry), formats: ["iife"], name, fileName: () => "script.js" },
    },
  });
  const chunk = (Array.isArray(output) ? output : [output])
    .flatMap((result) => result.output)
    .find((item) => item.type === "chunk");
  if (!chunk) throw new Error(`the build of ${entry} produced no script`);
  return chunk.code;
}

/**
 * The offline page's script (app/sw/offline-page.ts) into build/client/offline.js, with the translations of the keys
 * in app/sw/offline-page-keys.json from every locale file (a missing one leaves that text in English).
 */
async function buildOfflinePageScript() {
  const keys = JSON.parse(readFileSync(join(root, "app/sw/offline-page-keys.json"), "utf8"));
  const localeDirectory = join(root, "app/locales");
  const texts = {};
  for (const file of readdirSync(localeDirectory)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const locale = JSON.parse(readFileSync(join(localeDirectory, file), "utf8"));
    texts[file.slice(0, -".json".length)] = Object.fromEntries(
      Object.entries(keys).map(([name, key]) => [name, locale[key] ?? ""]),
    );
  }
  const code = await buildScript("app/sw/offline-page.ts", "fanclubOfflinePage", {
    __OFFLINE_PAGE_TEXTS__: JSON.stringify(texts),
  });
  writeFileSync(join(clientDirectory, "offline.js"), code);
}

await buildOfflinePageScript();
const manifest = precacheManifest(clientDirectory);
if (!manifest.some((entry) => entry.url === "/offline.js")) throw new Error("build/client/offline.js is missing");
if (!manifest.some((entry) => entry.url === "/offline.html"))
  throw new Error("build/client/offline.html is missing: run remix vite:build first");

// Workbox drops its development logging when NODE_ENV is production; library mode leaves process.env alone.
const code = await buildScript("app/sw/service-worker.ts", "fanclubServiceWorker", {
  "process.env.NODE_ENV": JSON.stringify("production"),
});
const occurrences = code.split(PLACEHOLDER).length - 1;
if (occurrences !== 1)
  throw new Error(`expected ${PLACEHOLDER} once in the built service worker, found it ${occurrences} times`);
writeFileSync(join(clientDirectory, "sw.js"), code.replace(PLACEHOLDER, JSON.stringify(manifest)));
console.log(`build/client/sw.js: ${(code.length / 1024).toFixed(1)} KiB, ${manifest.length} precached files`);
