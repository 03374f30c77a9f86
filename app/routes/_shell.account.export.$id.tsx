import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { findOwnDataExport } from "@worker/domain/data-exports/find-own-data-export";
import { presentDataExport } from "@worker/domain/data-exports/present-data-export";
import { parseIdText } from "@worker/domain/shared/validation";
import { isoNow } from "@worker/domain/shared/time";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { DataExportStatus } from "~/components/settings/export-settings";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Your data"))]);

export const handle: ShellHandle = { rightColumn: "none" };

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/**
 * /account/export/{id}, the page a data export's mail links to: its owner, signed in, sees the download (or that it
 * has expired: a 410); anyone else gets the 404 of an export that does not exist.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const id = parseIdText(params.id);
  const row = id === null ? null : await findOwnDataExport(context.domain.db, user.id, id);
  if (!row) throw new Response("Not found", { status: 404 });
  const dataExport = presentDataExport(row, isoNow());
  return data(
    { dataExport },
    { status: dataExport.status === "expired" ? 410 : 200, headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function DataExportPage() {
  const { t } = useTranslation();
  const { dataExport } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Your data")} />
      <div className="max-w-lg space-y-4 p-4">
        <DataExportStatus dataExport={dataExport} />
        <p>
          <Link to="/settings/privacy" className="link">
            {t("Privacy and data settings")}
          </Link>
        </p>
      </div>
    </>
  );
}
