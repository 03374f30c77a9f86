#!/usr/bin/env node
// Serves the built app (scripts/lib/local-server.mjs). `npm start` runs it as is: http://localhost:8787 with the cron
// every minute and the local state in .wrangler/state. The end-to-end tier and the benchmarks start one of their own
// (tests/support/dev-server.mjs): --port N, --persist-to DIR, --var NAME:VALUE (repeatable), --entry FILE,
// --no-cron, --watch (serve what changes under build/), --log-level warn.
import { parseArgs } from "node:util";
import { LogLevel } from "miniflare";
import { LOCAL_WORKER, serveLocally } from "./lib/local-server.mjs";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    "persist-to": { type: "string", default: ".wrangler/state" },
    var: { type: "string", multiple: true, default: [] },
    entry: { type: "string", default: LOCAL_WORKER },
    "no-cron": { type: "boolean", default: false },
    watch: { type: "boolean", default: false },
    "log-level": { type: "string", default: "info" },
  },
});

const vars = Object.fromEntries(
  values.var.map((pair) => [pair.slice(0, pair.indexOf(":")), pair.slice(pair.indexOf(":") + 1)]),
);
const local = await serveLocally({
  entry: values.entry,
  port: Number(values.port),
  persistTo: values["persist-to"],
  vars,
  cron: !values["no-cron"],
  watch: values.watch,
  logLevel: values["log-level"] === "warn" ? LogLevel.WARN : LogLevel.INFO,
});
console.log(`Ready on ${local.origin}`);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => void local.stop().finally(() => process.exit(0)));
}
