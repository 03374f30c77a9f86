import { Hono } from "hono";
import type { AppOptions } from "../app";
import type { AppEnv } from "../http/types";
import { runScheduledJobs } from "../jobs";
import { devMailbox, showMailbox } from "./mailbox";

/**
 * What a local run's Worker (`npm start`, `npm run dev`, the end-to-end tier, the benchmark) adds to production's:
 * mail kept in a mailbox on this machine, and the routes of the mailbox, of `npm run dev`'s reload
 * (app/components/dev-reload.tsx) and of the cron's jobs (GET /__scheduled). None of it is imported by worker/index.ts,
 * so none of it is in the production bundle (tests/unit/production-bundle.test.ts).
 */
export const LOCAL_RUN: Omit<AppOptions, "buildVersion"> = {
  mailer: devMailbox,
  localRoutes: (buildVersion) =>
    new Hono<AppEnv>()
      .get("/dev/mailbox", showMailbox)
      .get("/__dev/version", (c) => c.json({ version: buildVersion }))
      // The cron trigger's jobs, as Cloudflare runs them every minute: the local server's ticker and the tests ask
      // here (scripts/lib/local-server.mjs). Answers once they are done, with their outcomes.
      .get("/__scheduled", async (c) => {
        // Mail the jobs send links to this server, as APP_URL makes production's do.
        const env = { ...c.env, APP_URL: c.env.APP_URL ?? new URL(c.req.url).origin };
        return c.json(await runScheduledJobs(env, (work) => c.executionCtx.waitUntil(work), c.get("mailer")));
      }),
};
