import type { MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { UserSearch } from "~/components/shell/user-search";
import { signedInOnly } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Search · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "empty" };

export const loader = signedInOnly;

/** /search: the user search, full width (on phones the right column's search lives here). */
export default function SearchPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Search")} />
      <div className="p-4">
        <UserSearch autoFocus />
      </div>
    </>
  );
}
