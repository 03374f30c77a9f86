import { useLocation } from "@remix-run/react";
import { lazy, useEffect, useState } from "react";
import { isKeptOffline, KEEP_PAGE } from "~/sw/policy";
import { whenIdle } from "~/lib/idle";
import { UnlessLoadFails } from "~/components/unless-load-fails";

const UpdatePrompt = lazy(() =>
  import("~/components/update-prompt").then((module) => ({ default: module.UpdatePrompt })),
);

/**
 * Calls `offer` once a new version has installed and waits for the open pages to let go of the running one: one
 * already waiting, one installing now, or one found later. It follows the registration itself (workbox-window's
 * "waiting" event missed updates: an update check can find a new version before a listener is there, and a fast
 * install could already be "installed" by the time "updatefound" was handled, and never be offered).
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
 * Registers the service worker (/sw.js, built by scripts/build-sw.mjs) with workbox-window once the page has loaded
 * and is idle and, when a new version of the app has been installed and waits, offers to switch to it. Render once,
 * in the root layout.
 */
export function ServiceWorkerManager() {
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);
  const { pathname } = useLocation();

  // A screen kept for offline reading: the worker stores its page if it has none (the first visit came before
  // the worker; client-side navigations load data only), so a launch offline can start from it.
  useEffect(() => {
    if (!("serviceWorker" in navigator) || !isKeptOffline(pathname)) return;
    void navigator.serviceWorker.ready.then((registration) =>
      registration.active?.postMessage({ type: KEEP_PAGE, url: pathname }),
    );
  }, [pathname]);

  // Registered once the page has loaded and the main thread is idle: workbox-window (loaded only then) and the
  // worker's install (it precaches the build) stay out of the first load's critical path.
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    let cancelled = false;
    const register = async () => {
      try {
        const { Workbox } = await import("workbox-window");
        if (cancelled) return;
        const wb = new Workbox("/sw.js", { scope: "/" });
        const offer = () =>
          setApplyUpdate(() => () => {
            // The new worker takes control once it skips waiting (app/sw/service-worker.ts); the page then reloads
            // into the new version.
            wb.addEventListener("controlling", () => window.location.reload());
            wb.messageSkipWaiting();
          });
        const registration = await wb.register();
        if (registration && !cancelled) offerWhenWaiting(registration, offer);
      } catch (error) {
        console.warn("service worker registration failed", error);
      }
    };
    const cancelIdle = whenIdle(() => void register());
    return () => {
      cancelled = true;
      cancelIdle();
    };
  }, []);

  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 pb-[calc(1rem+env(safe-area-inset-bottom))]"
    >
      {applyUpdate ? (
        <UnlessLoadFails>
          <UpdatePrompt onLater={() => setApplyUpdate(null)} onReload={applyUpdate} />
        </UnlessLoadFails>
      ) : null}
    </div>
  );
}
