import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isNetworkFailure, OFFLINE_STATUS } from "~/lib/offline-copies";
import { useSession } from "~/lib/session";

/**
 * The error boundary of every route: what failed, said in the person's language, and a way back. A route inside
 * the layout exports `RouteErrorBoundary`, which fills the content column its screen would have filled, so the
 * navigation stays around it (and a dashboard tab's failure keeps the row of tabs); a route without the layout
 * exports `PageErrorBoundary`, a page of its own. Everything here is small and in the first chunk (vite.config.ts
 * CORE): a failure must not need one more download to be told.
 */
type Failure = "not-found" | "no-access" | "offline" | "server";

function failureOf(error: unknown): Failure {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return "not-found";
    if (error.status === 401 || error.status === 403) return "no-access";
    // A screen with no saved copy, offline (app/lib/offline-copies.ts): a calm state, not a failure.
    if (error.status === OFFLINE_STATUS) return "offline";
  }
  return isNetworkFailure(error) ? "offline" : "server";
}

function FailureText({ way, Heading }: { way: { to: string; label: string }; Heading: "h1" | "h2" }) {
  const { t } = useTranslation();
  const error = useRouteError();
  const failure = failureOf(error);
  if (failure === "server") console.error(error);
  const [title, text] = {
    "not-found": [t("Page not found"), t("The page you are looking for does not exist.")],
    "no-access": [t("No access"), t("Your account cannot open this page.")],
    offline: [
      t("You are offline"),
      t("This page was not saved on this device. It opens again once you are back online."),
    ],
    server: [t("Something went wrong"), t("Please try again in a moment.")],
  }[failure];
  return (
    <div data-testid="route-error" className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="max-w-sm text-slate-600 dark:text-slate-400">{text}</p>
      <Link to={way.to} className="btn-primary mt-2 w-auto">
        {way.label}
      </Link>
    </div>
  );
}

/** Inside the layout (routes named _shell.*): the layout's navigation stays; the way back is the feed. */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const { isAuth } = useSession();
  return (
    <FailureText
      Heading="h2"
      way={isAuth ? { to: "/home", label: t("Go to your feed") } : { to: "/", label: t("Go to the home page") }}
    />
  );
}

/**
 * Outside the layout (sign-in, stories, live, the root): a page of its own; the way back is the home page. The
 * root's stands in for everything, session included, so this one reads nothing of the session.
 */
export function PageErrorBoundary() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center">
      <FailureText Heading="h1" way={{ to: "/", label: t("Go to the home page") }} />
    </main>
  );
}
