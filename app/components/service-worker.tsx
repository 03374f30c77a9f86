import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isKeptOffline, KEEP_PAGE } from "~/sw/policy";

/**
 * Calls `offer` once a new version has installed and waits for the open pages to let go of the running one: one
 * already waiting, one installing now, or one found later. It follows the registration itself instead of
 * workbox-window's "waiting" event, which missed updates: an update check can find a new version before
 * workbox-window listens (it loads after the page), and it only watched a worker's state changes from the moment it
 * handled "updatefound", so on a busy page a fast install could already be "installed" by then and never be offered.
 */
function offerWhenWaiting(registration: ServiceWorkerRegistration, offer: () => void) {
  const follow = (worker: ServiceWorker | null) => {
    if (!worker) return;
    // With no other version active this is the first install, which takes over by itself (clientsClaim).
    const check = () => {
      if (worker.state === "installed" && registration.active && registration.active !== worker) offer();
    };
    worker.addEventListener("statechange", check);
    check();
  };
  registration.addEventListener("updatefound", () => follow(registration.installing));
  follow(registration.installing);
  follow(registration.waiting);
}

/**
 * Registers the service worker (/sw.js, built by scripts/build-sw.mjs) and, when a new version of the app has
 * been installed and waits, offers to switch to it. workbox-window is imported only here, after the page has
 * loaded, so it stays out of every page's first-load JavaScript. Render once, in the root layout.
 */
export function ServiceWorkerManager() {
  const { t } = useTranslation();
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);
  const { pathname } = useLocation();

  // A screen kept for offline reading: the worker stores its page if it has none (the first visit came before
  // the worker; client-side navigations load data only), so a launch offline can start from it.
  useEffect(() => {
    if (!("serviceWorker" in navigator) || !isKeptOffline(pathname)) return;
    void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: KEEP_PAGE, url: pathname }));
  }, [pathname]);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    let cancelled = false;
    import("workbox-window").then(
      ({ Workbox }) => {
        if (cancelled) return;
        const wb = new Workbox("/sw.js", { scope: "/" });
        const offer = () =>
          setApplyUpdate(() => () => {
            // The new worker takes control once it skips waiting; the page then reloads into the new version.
            wb.addEventListener("controlling", () => window.location.reload());
            wb.messageSkipWaiting();
          });
        wb.register().then(
          (registration) => {
            if (registration && !cancelled) offerWhenWaiting(registration, offer);
          },
          (error: unknown) => console.warn("service worker registration failed", error),
        );
      },
      (error: unknown) => console.warn("service worker support failed to load", error),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 pb-[calc(1rem+env(safe-area-inset-bottom))]">
      {applyUpdate ? (
        <div className="pointer-events-auto flex w-full max-w-md flex-wrap items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <p className="min-w-0 flex-1">{t("A new version of Fanclub is available.")}</p>
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={() => setApplyUpdate(null)}>
              {t("Later")}
            </button>
            <button type="button" className="btn-primary w-auto" onClick={applyUpdate}>
              {t("Reload")}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
