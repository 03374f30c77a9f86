import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * Share a profile: its absolute URL to copy, and a QR code of it. The QR encoder is loaded only when the dialog
 * opens, so profile pages do not carry it.
 */
export function ShareDialog({ url, onClose }: { url: string; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [qrDataUrl, setQrDataUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    let cancelled = false;
    void import("qrcode-generator").then(({ default: qrcode }) => {
      const code = qrcode(0, "M");
      code.addData(url);
      code.make();
      if (!cancelled) setQrDataUrl(code.createDataURL(6, 4));
    });
    return () => {
      cancelled = true;
    };
  }, [url]);

  async function copy() {
    await navigator.clipboard.writeText(url);
    setCopied(true);
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="share-title"
      onClose={onClose}
      className="w-full max-w-sm rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-black/50 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id="share-title" className="text-lg font-semibold">
        {t("Share this profile")}
      </h2>
      <div className="mt-4 flex justify-center">
        {qrDataUrl ? (
          <img
            src={qrDataUrl}
            alt={t("QR code of the profile link")}
            className="h-48 w-48 rounded-lg bg-white p-1 [image-rendering:pixelated]"
          />
        ) : (
          <div className="h-48 w-48 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" aria-hidden="true" />
        )}
      </div>
      <label htmlFor="share-url" className="mt-4 block text-sm font-medium">
        {t("Profile link")}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id="share-url"
          className="input"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn-secondary shrink-0 px-4" onClick={() => void copy()}>
          {copied ? t("Copied") : t("Copy link")}
        </button>
      </div>
      <p role="status" className="sr-only">
        {copied ? t("Link copied.") : ""}
      </p>
      <form method="dialog" className="mt-6 flex justify-end">
        <button type="submit" className="btn-secondary">
          {t("Close")}
        </button>
      </form>
    </dialog>
  );
}
