import type { ReactNode } from "react";

/**
 * A message about the whole form or page: an error (red), a confirmation (green) or information. Its own module,
 * so a page that shows one does not load the form components (app/components/forms.tsx re-exports it).
 */
export function Notice({ tone, children }: { tone: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-900",
    success:
      "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900",
    info: "bg-brand-50 text-brand-700 ring-brand-100 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-lg px-4 py-3 text-sm ring-1 ${styles}`}>
      {children}
    </div>
  );
}
