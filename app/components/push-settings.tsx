import { useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { LocalTime } from "~/components/local-time";
import { useSession } from "~/lib/session";
import type { PushDevice, PushSettings as PushSettingsView } from "@shared/contracts/push";
import { PUSH_KINDS, type PushKind } from "@shared/contracts/push-kinds";
import { failureText } from "~/lib/failure-text";
import { pushDeviceShape, pushPreferencesShape, pushSettingsShape, pushTestSentShape } from "~/lib/push-shapes";

/** Push needs a service worker, the Push API and notifications: an in-app browser or an old one may lack them. */
const pushSupported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/**
 * Settings → Notifications, web push: turn push on for this device (the browser asks for permission only once the
 * person pressed the button), choose the kinds (for all of one's devices), see and remove the devices, and send a
 * test push. The server stores each device's PushSubscription (worker/domain/push).
 */
export function PushSettings() {
  const { t } = useTranslation();
  const { api } = useSession();
  const id = useId();
  const [settings, setSettings] = useState<PushSettingsView | null>(null);
  const [thisEndpoint, setThisEndpoint] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const supported = pushSupported();

  const load = useCallback(async () => {
    const [answer, subscription] = await Promise.all([
      api.get("/push", pushSettingsShape),
      supported
        ? navigator.serviceWorker.ready.then((registration) => registration.pushManager.getSubscription())
        : Promise.resolve(null),
    ]);
    setSettings(answer);
    setThisEndpoint(subscription?.endpoint ?? null);
  }, [api, supported]);

  useEffect(() => {
    load().catch((error: unknown) => console.error("push settings failed to load", error));
  }, [load]);

  async function run(work: () => Promise<string | null>) {
    setBusy(true);
    setStatus(null);
    try {
      const done = await work();
      if (done) setStatus({ tone: "ok", text: done });
      await load();
    } catch (error) {
      setStatus({ tone: "error", text: failureText(t, error) });
    } finally {
      setBusy(false);
    }
  }

  const turnOn = () =>
    run(async () => {
      if ((await Notification.requestPermission()) !== "granted")
        return t("Notifications are blocked for this site in your browser's settings.");
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: settings!.publicKey!,
      });
      const { endpoint, keys } = subscription.toJSON();
      await api.post(
        "/push/subscriptions",
        { endpoint, keys: { p256dh: keys?.p256dh, auth: keys?.auth } },
        pushDeviceShape,
      );
      return t("Push notifications are on for this device.");
    });

  const remove = (device: PushDevice) =>
    run(async () => {
      if (device.endpoint === thisEndpoint)
        await (
          await navigator.serviceWorker.ready
        ).pushManager
          .getSubscription()
          .then((subscription) => subscription?.unsubscribe());
      await api.delete(`/push/subscriptions/${device.id}`);
      return null;
    });

  const choose = (kind: PushKind, on: boolean) =>
    run(
      async () => (
        await api.put("/push/preferences", { ...settings!.preferences, [kind]: on }, pushPreferencesShape),
        null
      ),
    );

  const test = () => run(async () => (await api.post("/push/test", {}, pushTestSentShape)).message);

  if (!settings) return null;
  if (!settings.enabled)
    return (
      <p className="text-slate-600 dark:text-slate-400">{t("Push notifications are not available on this server.")}</p>
    );
  const thisDevice = settings.devices.find((device) => device.endpoint === thisEndpoint) ?? null;
  const kindLabels: Record<PushKind, string> = {
    messages: t("Messages"),
    posts: t("New posts from creators you follow"),
    earnings: t("Tips, purchases and new subscribers"),
    subscriptions: t("Your subscriptions and wallet"),
    interactions: t("Comments, likes and new followers"),
    live: t("Live streams starting"),
  };
  return (
    <div className="space-y-4" data-testid="push-settings">
      <h3 className="font-semibold">{t("Push notifications")}</h3>
      {!supported ? (
        <p className="text-slate-600 dark:text-slate-400">
          {t("This browser cannot receive push notifications. Installing Fanclub on your home screen may help.")}
        </p>
      ) : thisDevice ? (
        <p>{t("Push notifications are on for this device.")}</p>
      ) : (
        <button type="button" className="btn-primary w-auto" disabled={busy} onClick={() => void turnOn()}>
          {t("Turn on push notifications on this device")}
        </button>
      )}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t("Send me a push for")}</legend>
        {PUSH_KINDS.map((kind) => (
          <div key={kind} className="flex items-center gap-2">
            <input
              id={`${id}-${kind}`}
              type="checkbox"
              className="h-4 w-4"
              checked={settings.preferences[kind]}
              disabled={busy}
              onChange={(event) => void choose(kind, event.target.checked)}
            />
            <label htmlFor={`${id}-${kind}`}>{kindLabels[kind]}</label>
          </div>
        ))}
      </fieldset>
      <div className="space-y-2">
        <h4 className="text-sm font-medium">{t("Devices that receive push notifications")}</h4>
        {settings.devices.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("None yet.")}</p>
        ) : null}
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {settings.devices.map((device) => (
            <li key={device.id} data-testid="push-device" className="flex flex-wrap items-center gap-2 py-2">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {device.label}
                  {device === thisDevice ? (
                    <span className="ms-2 text-sm text-slate-600 dark:text-slate-400">{t("(this device)")}</span>
                  ) : null}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {t("Added")} <LocalTime iso={device.createdAt} />
                </p>
              </div>
              <button
                type="button"
                className="btn-secondary text-sm"
                disabled={busy}
                onClick={() => void remove(device)}
                aria-label={t("Remove {{device}}", { device: device.label })}
              >
                {t("Remove")}
              </button>
            </li>
          ))}
        </ul>
      </div>
      {settings.devices.length > 0 ? (
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => void test()}>
          {t("Send a test push")}
        </button>
      ) : null}
      <p
        role="status"
        className={status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-green-700 dark:text-green-400"}
      >
        {status?.text}
      </p>
    </div>
  );
}
