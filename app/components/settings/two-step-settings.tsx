import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TwoStepSetup, TwoStepStatus } from "@shared/contracts/two-step";
import { Field, Notice } from "~/components/forms";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { recoveryCodesShape, twoStepSetupShape } from "~/components/settings/two-step-shapes";

type Errors = Record<string, string[]>;

/** What a refused call says: its field errors, else its message as the form's. */
function errorsOf(error: unknown): Errors {
  if (!(error instanceof ApiError)) throw error;
  return Object.keys(error.body.errors).length ? error.body.errors : { form: [error.body.message] };
}

/** The fields of a submitted form, as text. */
const fieldsOf = (event: FormEvent<HTMLFormElement>) =>
  Object.fromEntries([...new FormData(event.currentTarget)].map(([name, value]) => [name, String(value)]));

/** The authenticator's QR code as SVG: the encoder loads only when someone turns two-step sign-in on. */
function QrCode({ text, label }: { text: string; label: string }) {
  const [path, setPath] = useState<{ d: string; size: number } | null>(null);
  useEffect(() => {
    let cancelled = false;
    void import("qrcode-generator").then(({ default: qrcode }) => {
      const code = qrcode(0, "M");
      code.addData(text);
      code.make();
      const count = code.getModuleCount();
      let d = "";
      for (let row = 0; row < count; row++)
        for (let column = 0; column < count; column++) if (code.isDark(row, column)) d += `M${column} ${row}h1v1h-1z`;
      if (!cancelled) setPath({ d, size: count });
    });
    return () => {
      cancelled = true;
    };
  }, [text]);
  if (!path) return <div className="h-48 w-48 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />;
  return (
    // Dark modules on white in both themes: that is what cameras read.
    <svg
      role="img"
      aria-label={label}
      viewBox={`-2 -2 ${path.size + 4} ${path.size + 4}`}
      className="h-48 w-48 rounded-lg bg-white"
      shapeRendering="crispEdges"
    >
      <path d={path.d} fill="#000" />
    </svg>
  );
}

/** The ten recovery codes, shown once, with Copy and Download. */
function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const text = codes.join("\n");
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`${text}\n`)}`;
  return (
    <div className="space-y-3">
      <Notice tone="success">
        {t("Save these recovery codes somewhere safe. Each works once, and they are shown only now.")}
      </Notice>
      <ul aria-label={t("Recovery codes")} className="grid max-w-sm grid-cols-2 gap-2 font-mono" dir="ltr">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center dark:bg-slate-800">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary w-auto"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {t("Copy")}
        </button>
        <a className="btn-secondary w-auto" href={download} download="recovery-codes.txt">
          {t("Download")}
        </a>
        <button type="button" className="btn-primary w-auto" onClick={onDone}>
          {t("I have saved them")}
        </button>
      </div>
      <p role="status" className="text-sm text-green-700 dark:text-green-400">
        {copied ? t("Copied") : ""}
      </p>
    </div>
  );
}

/**
 * Settings → Security → Two-step sign-in: turn it on (a QR code and the secret as text, confirmed with a code,
 * then the recovery codes once), make new recovery codes, and turn it off (password and code).
 */
export function TwoStepSettings() {
  const { t } = useTranslation();
  const { api } = useSession();
  const revalidator = useRevalidator();
  // The settings route's loader reads it for the Security page.
  const status = useLoaderData<{ twoStep?: TwoStepStatus | null }>().twoStep;
  const [setup, setSetup] = useState<TwoStepSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<{ form: string; errors: Errors } | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(form: string, work: () => Promise<void>) {
    setBusy(true);
    setErrors(null);
    try {
      await work();
    } catch (error) {
      setErrors({ form, errors: errorsOf(error) });
    } finally {
      setBusy(false);
    }
  }
  const errorsFor = (form: string) => (errors?.form === form ? errors.errors : {});

  const begin = () => run("begin", async () => setSetup(await api.post("/me/two-step/setup", {}, twoStepSetupShape)));
  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { code } = fieldsOf(event);
    return run("confirm", async () => {
      setCodes((await api.post("/me/two-step/confirm", { code }, recoveryCodesShape)).recoveryCodes);
      setSetup(null);
    });
  };
  const renew = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { code } = fieldsOf(event);
    return run("renew", async () =>
      setCodes((await api.post("/me/two-step/recovery-codes", { code }, recoveryCodesShape)).recoveryCodes),
    );
  };
  const turnOff = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { password, code } = fieldsOf(event);
    return run("off", async () => {
      await api.post("/me/two-step/off", { password, code });
      revalidator.revalidate();
    });
  };
  const finish = () => {
    setCodes(null);
    revalidator.revalidate();
  };

  if (!status) return null;
  const formError = (form: string) => errorsFor(form).form?.[0];

  return (
    <section aria-labelledby="two-step-title" className="max-w-lg space-y-3">
      <h3 id="two-step-title" className="font-semibold">
        {t("Two-step sign-in")}
      </h3>
      <p className="text-slate-600 dark:text-slate-400">
        {t("Besides your password, signing in asks for a code from an authenticator app on your phone.")}
      </p>
      {/* The state, announced when turning on or off changes it. */}
      <p role="status" className="font-medium">
        {codes || setup
          ? ""
          : status.enabled
            ? t("Two-step sign-in is on. Recovery codes left: {{count}}.", { count: status.recoveryCodesLeft })
            : t("Two-step sign-in is off.")}
      </p>
      {codes ? (
        <RecoveryCodeList codes={codes} onDone={finish} />
      ) : setup ? (
        <div className="space-y-3">
          <p>{t("Scan this QR code with your authenticator app, or type the key below into it.")}</p>
          <QrCode text={setup.uri} label={t("QR code for your authenticator app")} />
          <div>
            <p className="text-sm font-medium">{t("Key")}</p>
            <code className="break-all font-mono" dir="ltr" data-testid="two-step-secret">
              {setup.secret}
            </code>
          </div>
          <form onSubmit={(event) => void confirm(event)} className="space-y-3" noValidate>
            {formError("confirm") ? <Notice tone="error">{formError("confirm")}</Notice> : null}
            <Field
              label={t("Code from the app")}
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={32}
              required
              errors={errorsFor("confirm").code}
            />
            <div className="flex flex-wrap gap-2">
              <button type="submit" className="btn-primary w-auto" disabled={busy}>
                {t("Confirm and turn on")}
              </button>
              <button type="button" className="btn-secondary w-auto" onClick={() => setSetup(null)}>
                {t("Cancel")}
              </button>
            </div>
          </form>
        </div>
      ) : status.enabled ? (
        <div className="space-y-6">
          <form onSubmit={(event) => void renew(event)} className="space-y-3" noValidate>
            <h4 className="font-medium">{t("New recovery codes")}</h4>
            {formError("renew") ? <Notice tone="error">{formError("renew")}</Notice> : null}
            <Field
              label={t("Code from the app")}
              name="code"
              autoComplete="one-time-code"
              maxLength={32}
              required
              errors={errorsFor("renew").code}
            />
            <button type="submit" className="btn-secondary w-auto" disabled={busy}>
              {t("Make new recovery codes")}
            </button>
          </form>
          <form onSubmit={(event) => void turnOff(event)} className="space-y-3" noValidate>
            <h4 className="font-medium">{t("Turn off two-step sign-in")}</h4>
            {formError("off") ? <Notice tone="error">{formError("off")}</Notice> : null}
            <Field
              label={t("Password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              errors={errorsFor("off").password}
            />
            <Field
              label={t("Code from the app, or a recovery code")}
              name="code"
              autoComplete="one-time-code"
              maxLength={32}
              required
              errors={errorsFor("off").code}
            />
            <button type="submit" className="btn-secondary w-auto" disabled={busy}>
              {t("Turn off")}
            </button>
          </form>
        </div>
      ) : (
        <div className="space-y-3">
          {formError("begin") ? <Notice tone="error">{formError("begin")}</Notice> : null}
          <button type="button" className="btn-primary w-auto" disabled={busy} onClick={() => void begin()}>
            {t("Turn on")}
          </button>
        </div>
      )}
    </section>
  );
}
