import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A native modal dialog: focus stays inside, Escape and the Close button end it, the page behind is inert. */
export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="w-full max-w-md rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/50 dark:bg-slate-900 dark:text-slate-100"
    >
      {open ? (
        <div className="space-y-4 p-5">
          <div className="flex items-center justify-between gap-3">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="rounded-full px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <span aria-hidden="true">✕</span>
              <span className="sr-only">{t("Close")}</span>
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
