#!/usr/bin/env node
// `npm start` after build and local:prepare: the app on http://localhost:8787, with the cron running every minute.
import { serveLocally } from "./lib/local-server.mjs";

const local = serveLocally();
local.server.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => local.stop(signal));
