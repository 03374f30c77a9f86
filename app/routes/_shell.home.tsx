import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/page";
import { Composer } from "~/components/posts/composer";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { useUpdates, type Updates } from "~/lib/updates";

export const meta: MetaFunction = () => [{ title: "Home · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "search-and-suggested" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { name: user.name, verified: user.email_verified_at !== null, isCreator: user.role === "creator" };
}

/** The home feed. Opening it clears the Home dot (a POST: GETs never change anything). */
export default function Home() {
  const { t } = useTranslation();
  const { name, verified, isCreator } = useLoaderData<typeof loader>();
  const { api } = useSession();
  const { setUpdates } = useUpdates();

  useEffect(() => {
    api
      .post<{ updates: Updates }>("/home/seen")
      .then((body) => setUpdates(body.updates))
      .catch((error: unknown) => console.error("POST /home/seen failed", error));
  }, [api, setUpdates]);

  return (
    <>
      <PageHeader title={t("Home")} />
      {isCreator ? <Composer /> : null}
      <div className="space-y-4 p-4">
        <h2 className="text-lg font-semibold">{t("Welcome, {{name}}!", { name })}</h2>
        {!verified ? (
          <Notice tone="info">
            {t("Please verify your email address.")}{" "}
            <Link to="/email/verify" className="link">
              {t("Verify now")}
            </Link>
          </Notice>
        ) : null}
      </div>
      <EmptyState
        icon="home"
        title={t("Your feed is empty")}
        text={t("Posts from creators you follow and subscribe to will appear here.")}
        action={{ to: "/search", label: t("Find creators") }}
      />
    </>
  );
}
