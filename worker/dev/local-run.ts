import { Hono } from "hono";
import type { AppOptions } from "../app";
import type { AppEnv } from "../http/types";
import { localAsset } from "./local-assets";
import { devMailbox, showMailbox } from "./mailbox";

/**
 * What a local run's Worker (`npm start`, `npm run dev`, the end-to-end tier, the benchmark) adds to production's:
 * mail kept in a mailbox on this machine, built files read whole (wrangler dev's asset server can stall), and the
 * routes of the mailbox and of `npm run dev`'s reload (app/components/dev-reload.tsx). None of it is imported by
 * worker/index.ts, so none of it is in the production bundle (tests/unit/production-bundle.test.ts).
 */
export const LOCAL_RUN: Omit<AppOptions, "buildVersion"> = {
  mailer: devMailbox,
  fetchAsset: localAsset,
  localRoutes: (buildVersion) =>
    new Hono<AppEnv>().get("/dev/mailbox", showMailbox).get("/__dev/version", (c) => c.json({ version: buildVersion })),
};
