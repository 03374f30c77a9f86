import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listFans } from "@worker/domain/subscriptions/list-fans";
import { FAN_KINDS, type FanKind } from "@shared/contracts/subscription-constants";
import { FanList } from "~/components/dashboard/fan-list";
import { requireCreator } from "~/lib/forms.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  // An unknown kind shows the default one, like a missing one.
  const requested = new URL(request.url).searchParams.get("kind");
  const kind: FanKind = FAN_KINDS.find((name) => name === requested) ?? "subscribers";
  return { kind, first: await listFans(context.domain.db, user, kind, null) };
}

/** /dashboard/fans?kind=…: the creator's subscribers, followers or former subscribers. */
export default function FansTab() {
  const { t } = useTranslation();
  const { kind, first } = useLoaderData<typeof loader>();
  return (
    <>
      <h2 className="sr-only">{t("Fans")}</h2>
      <p className="px-4 pt-3 text-sm">
        <Link to="/lists" className="link">
          {t("Lists: top spenders, tippers, your own lists and more")}
        </Link>
      </p>
      <FanList key={kind} kind={kind} first={first} />
    </>
  );
}
