import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ClientLoaderFunctionArgs, ShouldRevalidateFunction } from "@remix-run/react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, Suspense, useContext, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { presentMe } from "@worker/domain/accounts/users";
import { getUpdates } from "@worker/domain/updates/get-updates";
import { readerTimeZone } from "~/lib/time-zone.server";
import { RTL_LANGUAGES } from "@shared/i18n/languages";
import { formatCents } from "@shared/money";
import { learnMoneyPattern, MONEY_SAMPLE_CENTS, moneyPattern } from "@shared/money-pattern";
import { datePatterns, learnDatePatterns } from "@shared/date-pattern";
import { SessionProvider } from "~/lib/session";
import { UpdatesProvider } from "~/lib/updates";
import { clearOfflineData } from "~/lib/offline";
import { whenIdle } from "~/lib/idle";
import { isNetworkFailure } from "~/lib/offline-copies";
import { NonceContext } from "~/lib/nonce";
import { INLINE_STYLES_ID, InlineStylesContext } from "~/lib/inline-styles";
import { PageErrorBoundary } from "~/components/route-error";
import { Spinner } from "~/components/spinner";
import { ServiceWorkerManager } from "~/components/service-worker";

// Development only (`npm run dev`): fetched then, never part of a production page's first JavaScript.
const DevReload = lazy(() => import("~/components/dev-reload").then((module) => ({ default: module.DevReload })));

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

/** `read`, once per language and isolate. */
function perLanguage<T>(read: (language: string) => T): (language: string) => T {
  const kept = new Map<string, T>();
  return (language) => {
    if (!kept.has(language)) kept.set(language, read(language));
    return kept.get(language)!;
  };
}

/** The pattern of each language's amounts, read from two amounts the server formats. */
const moneyPatternOf = perLanguage((language) =>
  moneyPattern(MONEY_SAMPLE_CENTS.map((cents) => formatCents(cents, language))),
);
/** The patterns of each language's dates, read from dates the server formats. */
const datePatternsOf = perLanguage(datePatterns);

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = context.session?.user ?? null;
  return {
    language: context.language,
    // The zone the page's dates are rendered in (app/components/local-time.tsx): the reader's, once the browser has
    // said it; null renders UTC.
    timeZone: readerTimeZone(request),
    csrfToken: context.csrfToken,
    viewer: user ? presentMe(user) : null,
    viewerName: user?.name ?? "",
    // While the account is leaving, the shell says when it goes and offers to keep it.
    accountDeletesAt: user?.deletion_due_at ?? null,
    // The avatar menu offers the admin area to admins only (/admin is a 404 for everyone else anyway).
    viewerIsAdmin: user?.role === "admin",
    // The sidebar badges are right in the first paint; the browser keeps them fresh afterwards.
    updates: user ? await getUpdates(context.domain.db, user) : null,
    // A local run's Worker (worker/dev) keeps mail in its mailbox, and `npm run dev` reloads pages after a rebuild.
    devMailbox: context.localRun,
    devReloadVersion: context.localRun && context.domain.config.APP_ENV === "development" ? context.buildVersion : null,
    // How the page's language writes dollars, read from two amounts formatted here: the browser writes every amount
    // as the server does, without building an Intl formatter while it hydrates (shared/money-pattern.ts).
    moneyPattern: moneyPatternOf(context.language),
    // How it writes the app's dates: once the page is idle, the browser writes them in its own zone with these,
    // without building an Intl formatter (shared/date-pattern.ts).
    datePatterns: datePatternsOf(context.language),
  };
}

/**
 * The root's data (viewer, language, first badges) changes with a sign-in, a form or a language switch, not with
 * a link: moving between pages does not re-read it (the badges keep themselves fresh in the browser).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) =>
  formMethod !== undefined ||
  currentUrl.href === nextUrl.href ||
  currentUrl.searchParams.get("lng") !== nextUrl.searchParams.get("lng")
    ? defaultShouldRevalidate
    : false;

export type RootData = Awaited<ReturnType<typeof loader>>;

/** The root data the page has now: what a revalidation that cannot reach the server keeps showing. */
let lastRootData: RootData | null = null;

/**
 * Offline (a launch from the cache asks the server again, app/lib/offline-copies.ts), a revalidation that cannot
 * reach the server keeps the root data it has instead of failing the whole page: the screens show their saved
 * copies under it.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs): Promise<RootData> {
  try {
    lastRootData = await serverLoader<RootData>();
    return lastRootData;
  } catch (error) {
    if (lastRootData && isNetworkFailure(error)) return lastRootData;
    throw error;
  }
}
export const useRootData = () => useRouteLoaderData<typeof loader>("root");

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  // Subscribes the document head to language changes: a switched language's texts arrive after the root data
  // names it, and the title (<Meta />) is translated again once they are there.
  const { i18n } = useTranslation();
  // An address no route matches runs no loader: the language is then the one the server's translations were made
  // for (the request's), which the browser's start reads back from <html lang>.
  const language = data?.language ?? i18n.language;
  const nonce = useContext(NonceContext);
  const styles = useContext(InlineStylesContext);
  return (
    <html lang={language} dir={RTL_LANGUAGES.has(language) ? "rtl" : "ltr"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#0a6fd6" />
        <Meta />
        {/* The stylesheet, inlined (app/lib/inline-styles.ts): the first paint waits for no second request. */}
        <style id={INLINE_STYLES_ID} dangerouslySetInnerHTML={{ __html: styles }} />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Spec §2: a spinner while a route loads. Inside the layout the shell covers its content column; pages without
 * the layout (sign-in, stories, live) get this one.
 */
function RouteLoading() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const inShell = useMatches().some((match) => match.id === "routes/_shell");
  if (navigation.state !== "loading" || inShell) return null;
  return (
    <div className="fixed inset-x-0 top-4 z-50 flex justify-center">
      <div className="rounded-full bg-white/90 p-3 shadow dark:bg-slate-900/90">
        <Spinner label={t("Loading…")} />
      </div>
    </div>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  lastRootData = data;
  const { language, csrfToken, viewer, updates, devReloadVersion } = data;
  // Before any child renders an amount (this runs first in the hydration's render): the browser writes amounts
  // with the server's pattern. The server itself formats with Intl.
  if (typeof document !== "undefined") {
    learnMoneyPattern(language, data.moneyPattern);
    learnDatePatterns(language, data.datePatterns);
  }
  useChangeLanguage(language);
  // Signed out however it happened (expiry, reset, another device): no private page stays kept for offline use.
  const signedOut = viewer === null;
  // Once the page is idle: IndexedDB, the caches and the service worker are nothing the first paint needs.
  useEffect(() => (signedOut ? whenIdle(() => void clearOfflineData()) : undefined), [signedOut]);
  useHydratedMark();
  return (
    <SessionProvider viewer={viewer} csrfToken={csrfToken}>
      <UpdatesProvider initial={updates} realtime={viewer !== null}>
        <Outlet />
      </UpdatesProvider>
      <ServiceWorkerManager />
      <RouteLoading />
      {devReloadVersion ? (
        <Suspense fallback={null}>
          <DevReload version={devReloadVersion} />
        </Suspense>
      ) : null}
    </SessionProvider>
  );
}

/**
 * Says that React has hydrated the page (the root's effect runs after every child's): useServerText keeps the server's
 * texts until then (app/lib/server-text.ts), the service worker's early links wait for it (app/sw/policy.ts), and the
 * end-to-end tests wait for it before they type or click (tests/e2e/support.ts, hydrated).
 */
const useHydratedMark = () =>
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);

export function ErrorBoundary() {
  // It stands in for App (an address no route matches, a root loader that failed): the page is hydrated all the same.
  useHydratedMark();
  return <PageErrorBoundary />;
}
