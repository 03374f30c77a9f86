import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { DataExportStateSchema } from "@shared/contracts/data-exports";
import { findDataExportState } from "../../domain/data-exports/find-data-export-state";
import { requestDataExport } from "../../domain/data-exports/request-data-export";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { enqueueDataExport } from "../../queues/data-exports";
import { errorResponses, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 409: e409, 429: e429 } = errorResponses;

export const dataExportRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

dataExportRoutes.openapi(
  createRoute({
    method: "get",
    path: "/account/data-export",
    tags: ["Accounts"],
    summary: "The caller's latest data export and when a new one may be asked for",
    middleware: [requireSession] as const,
    responses: { 200: json(DataExportStateSchema, "The latest export"), 401: e401 },
  }),
  async (c) => c.json(await findDataExportState(c.get("domain").db, c.get("session").user.id), 200),
);

dataExportRoutes.openapi(
  createRoute({
    method: "post",
    path: "/account/data-export",
    tags: ["Accounts"],
    summary:
      "Ask for a copy of one's data: a ZIP built in the background, then a mailed link that works for 7 days (one at a time, one a day)",
    middleware: [requireSession] as const,
    responses: {
      202: json(DataExportStateSchema, "Accepted: the export is preparing"),
      401: e401,
      409: e409,
      429: e429,
    },
  }),
  async (c) =>
    c.json(await requestDataExport(c.get("domain"), enqueueDataExport(c.env), c.get("session").user.id), 202),
);
