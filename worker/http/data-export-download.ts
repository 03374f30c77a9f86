import type { Context } from "hono";
import { idText } from "@shared/contracts/text";
import { findOwnDataExport } from "../domain/data-exports/find-own-data-export";
import { dataExportPagePath, statusAt } from "../domain/data-exports/present-data-export";
import { isoNow } from "../domain/shared/time";
import type { AppEnv } from "./types";

/**
 * /account/export/{id}/download: the ZIP, streamed from R2 to its owner only. Signed out: to the sign-in, then back
 * to the export's page. Anyone else's export, or one not ready, is a 404 like a missing one; once its week is over,
 * a 410 (the page says so in words).
 */
export async function downloadDataExport(c: Context<AppEnv>) {
  const id = idText.safeParse(c.req.param("id"));
  if (!id.success) return c.notFound();
  const user = c.get("session")?.user;
  if (!user) return c.redirect(`/login?redirectTo=${encodeURIComponent(dataExportPagePath(id.data))}`);
  const row = await findOwnDataExport(c.get("domain").db, user.id, id.data);
  const status = row ? statusAt(row, isoNow()) : null;
  if (status === "expired") return c.text(c.get("domain").t("This download has expired."), 410);
  const object = row && status === "ready" ? await c.env.MEDIA.get(row.object_key) : null;
  if (!row || !object) return c.notFound();
  const headers = new Headers({
    "Content-Type": "application/zip",
    "Content-Length": String(object.size),
    "Content-Disposition": `attachment; filename="${user.username}-data-${row.created_at.slice(0, 10)}.zip"`,
    "Cache-Control": "private, no-store",
  });
  return new Response(object.body, { headers });
}
