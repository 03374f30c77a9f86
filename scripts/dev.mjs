#!/usr/bin/env node
// `npm run dev`: builds, prepares local data, serves (scripts/lib/local-server.mjs, cron every minute) and builds again
// whenever a file under app/, public/, worker/ or shared/ changes. The server takes each build once it is whole (the
// Worker bundled again); the page reloads itself when /__dev/version names a new build.
import { spawn, spawnSync } from "node:child_process";
import { watch } from "node:fs";
import { serveLocally } from "./lib/local-server.mjs";

const run = (command) => spawnSync(command, { shell: true, stdio: "inherit" }).status === 0;

if (!run("npm run build") || !run("npm run local:prepare")) process.exit(1);
const local = await serveLocally({ cron: true });
console.log(`Ready on ${local.origin}`);

let timer;
let building = false;
let again = false;
function rebuild() {
  if (building) return void (again = true);
  building = true;
  // The same two steps as `npm run build`: the Remix app, then the service worker with its precache list.
  const child = spawn("npx remix vite:build && node scripts/build-sw.mjs", { shell: true, stdio: "inherit" });
  child.on("exit", (code) => {
    building = false;
    if (code === 0 && !again) void local.reload();
    if (again) {
      again = false;
      rebuild();
    }
  });
}
for (const dir of ["app", "public", "worker", "shared"]) {
  watch(dir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(rebuild, 150);
  });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => void local.stop().finally(() => process.exit(0)));
}
