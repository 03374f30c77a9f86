import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SignedInDevice } from "@shared/contracts/devices";
import { Notice } from "~/components/notice";
import { LocalTime } from "~/components/local-time";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/**
 * Settings → Security → Signed-in devices: every session of the person, this one marked, each other with its
 * Sign out, and one Sign out for all others. Plain forms (intents devices-end, devices-end-others of the settings
 * route): they work before the page's JavaScript, and the list reloads after each.
 */
export function DeviceSettings() {
  const { t } = useTranslation();
  const { devices } = useLoaderData<{ devices: SignedInDevice[] | null }>();
  const { fetcher, container, result } = useFormFetcher();
  if (!devices) return null;
  const busy = fetcher.state !== "idle";
  const others = devices.filter((device) => !device.current);
  return (
    <section aria-labelledby="signed-in-devices" className="max-w-2xl space-y-3" ref={container}>
      <h3 id="signed-in-devices" className="font-semibold">
        {t("Signed-in devices")}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t("Sign out any device you do not recognise, then change your password.")}
      </p>
      <div role="status">
        {result ? <Notice tone={result.ok ? "success" : "error"}>{result.message}</Notice> : null}
      </div>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {devices.map((device) => (
          <li key={device.id} data-testid="signed-in-device" className="flex flex-wrap items-center gap-2 py-3">
            <div className="min-w-0 flex-1">
              <p className="font-medium" id={`device-${device.id}`}>
                {device.label}
                {device.current ? (
                  <span className="ms-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                    {t("This device")}
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{device.place}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {t("Signed in")} <LocalTime iso={device.createdAt} /> · {t("Last active")}{" "}
                <LocalTime iso={device.lastActiveAt} />
              </p>
            </div>
            {device.current ? null : (
              <IntentForm fetcher={fetcher} intent="devices-end" fields={{ sessionId: device.id }}>
                <button
                  type="submit"
                  className="btn-secondary text-sm"
                  disabled={busy}
                  aria-describedby={`device-${device.id}`}
                >
                  {t("Sign out")}
                </button>
              </IntentForm>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <IntentForm fetcher={fetcher} intent="devices-end-others">
          <button type="submit" className="btn-secondary" disabled={busy}>
            {t("Sign out all other devices")}
          </button>
        </IntentForm>
      ) : null}
    </section>
  );
}
