import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Passkey } from "@shared/contracts/passkeys";
import { Field } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { useCeremonyTexts } from "~/components/passkey-sign-in";
import { ApiError } from "~/lib/api";
import { passkeyShape } from "~/lib/passkey-shapes";
import { useSession } from "~/lib/session";

type Status = { tone: "ok" | "error"; text: string } | null;

/**
 * Settings → Security → Passkeys: the account's passkeys (name, added, last used), adding one (the password first:
 * a stolen session must not add a lasting way in), renaming and removing one (a confirmation; removing takes a way
 * in away, and the password still signs in). The WebAuthn library loads when adding starts.
 */
export function PasskeySettings() {
  const { t } = useTranslation();
  const { passkeys } = useLoaderData<{ passkeys: Passkey[] }>();
  const { api } = useSession();
  const revalidator = useRevalidator();
  const ceremonyTexts = useCeremonyTexts();
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<Status>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    setStatus(null);
    setErrors({});
    setBusy(true);
    const ceremony = await import("~/lib/passkeys").catch(() => null);
    if (!ceremony) {
      setStatus({ tone: "error", text: ceremonyTexts.network });
      return setBusy(false);
    }
    try {
      const added = await ceremony.addPasskey(api, String(fields.get("password")), String(fields.get("name")));
      form.reset();
      setAdding(false);
      setStatus({ tone: "ok", text: t("Passkey “{{name}}” added.", { name: added.name }) });
      revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError) {
        // A field's error shows under the field; the rest in the status line.
        setErrors(error.body.errors);
        if (Object.keys(error.body.errors).length === 0) setStatus({ tone: "error", text: error.body.message });
      } else setStatus({ tone: "error", text: ceremonyTexts[ceremony.ceremonyFailure(error)] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="passkeys-title" className="max-w-lg space-y-3" data-testid="passkey-settings">
      <h3 id="passkeys-title" className="font-semibold">
        {t("Passkeys")}
      </h3>
      <p className="text-slate-600 dark:text-slate-400">
        {t(
          "Sign in with your fingerprint, face or screen lock instead of your password. A passkey counts as both steps of two-step sign-in.",
        )}
      </p>
      {passkeys.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("You have no passkeys yet.")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} onStatus={setStatus} />
          ))}
        </ul>
      )}
      {adding ? (
        <form className="space-y-3" onSubmit={(event) => void add(event)} noValidate>
          <Field
            label={t("Name for this passkey")}
            name="name"
            autoComplete="off"
            maxLength={60}
            required
            hint={t("For example the device it is on: “Laptop”, “Phone”.")}
            errors={errors.name}
          />
          <Field
            label={t("Your password")}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            errors={errors.password}
          />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary w-auto" disabled={busy}>
              {t("Continue")}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => setAdding(false)}>
              {t("Cancel")}
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="btn-secondary"
          data-needs-js
          onClick={() => {
            setStatus(null);
            setAdding(true);
          }}
        >
          {t("Add a passkey")}
        </button>
      )}
      <p
        role="status"
        className={status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-green-700 dark:text-green-400"}
      >
        {status?.text}
      </p>
    </section>
  );
}

function PasskeyItem({ passkey, onStatus }: { passkey: Passkey; onStatus(status: Status): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const revalidator = useRevalidator();
  const [renaming, setRenaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  async function act(work: () => Promise<string>) {
    setBusy(true);
    setErrors([]);
    try {
      onStatus({ tone: "ok", text: await work() });
      revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError && error.body.errors.name) setErrors(error.body.errors.name);
      else if (error instanceof ApiError) onStatus({ tone: "error", text: error.body.message });
      else onStatus({ tone: "error", text: t("Please try again in a moment.") });
    } finally {
      setBusy(false);
    }
  }

  function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name"));
    void act(async () => {
      const renamed = await api.patch(`/passkeys/${passkey.id}`, { name }, passkeyShape);
      setRenaming(false);
      return t("Passkey renamed to “{{name}}”.", { name: renamed.name });
    });
  }

  function remove() {
    if (!window.confirm(t("Remove the passkey “{{name}}”? It will no longer sign you in.", { name: passkey.name })))
      return;
    void act(async () => {
      await api.delete(`/passkeys/${passkey.id}`);
      return t("Passkey “{{name}}” removed.", { name: passkey.name });
    });
  }

  return (
    <li className="space-y-2 py-2" data-testid="passkey">
      <div className="flex flex-wrap items-center gap-2">
        <div className="min-w-0 flex-1">
          <p className="break-words font-medium">{passkey.name}</p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t("Added")} <LocalTime iso={passkey.createdAt} dateOnly />
            {" · "}
            {passkey.lastUsedAt ? (
              <>
                {t("Last used")} <LocalTime iso={passkey.lastUsedAt} />
              </>
            ) : (
              t("Not used yet")
            )}
          </p>
        </div>
        <button
          type="button"
          className="btn-secondary text-sm"
          disabled={busy}
          aria-label={t("Rename the passkey “{{name}}”", { name: passkey.name })}
          onClick={() => setRenaming((open) => !open)}
        >
          {t("Rename")}
        </button>
        <button
          type="button"
          className="btn-secondary text-sm"
          disabled={busy}
          aria-label={t("Remove the passkey “{{name}}”", { name: passkey.name })}
          onClick={remove}
        >
          {t("Remove")}
        </button>
      </div>
      {renaming ? (
        <form className="flex flex-wrap items-end gap-2" onSubmit={rename} noValidate>
          <div className="min-w-0 flex-1">
            <Field
              label={t("New name")}
              name="name"
              defaultValue={passkey.name}
              autoComplete="off"
              maxLength={60}
              required
              errors={errors}
            />
          </div>
          <button type="submit" className="btn-primary w-auto" disabled={busy}>
            {t("Save")}
          </button>
        </form>
      ) : null}
    </li>
  );
}
