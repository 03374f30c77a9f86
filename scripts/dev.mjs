#!/usr/bin/env node
// `npm run dev`: builds, prepares local data, serves with `wrangler dev` (cron every minute), and rebuilds the app whenever a file
// under app/ or public/ changes. wrangler reloads the Worker on every rebuild (and on changes under worker/);
// refresh the browser to see the change.
import { spawn, spawnSync } from "node:child_process";
import { watch } from "node:fs";
import { serveLocally } from "./lib/local-server.mjs";

const run = (command) => spawnSync(command, { shell: true, stdio: "inherit" }).status === 0;

if (!run("npm run build") || !run("npm run local:prepare")) process.exit(1);
const local = serveLocally();

let timer;
let building = false;
let again = false;
function rebuild() {
  if (building) return void (again = true);
  building = true;
  // The same two steps as `npm run build`: the Remix app, then the service worker with its precache list.
  const child = spawn("npx remix vite:build && node scripts/build-sw.mjs", { shell: true, stdio: "inherit" });
  child.on("exit", () => {
    building = false;
    if (again) {
      again = false;
      rebuild();
    }
  });
}
for (const dir of ["app", "public"]) {
  watch(dir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(rebuild, 150);
  });
}
process.on("SIGINT", () => {
  local.stop("SIGINT");
  process.exit(0);
});
