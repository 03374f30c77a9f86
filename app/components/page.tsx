import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon, type IconName } from "~/components/shell/icons";

/** The title bar of a screen inside the layout. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b border-slate-200 bg-white/90 px-4 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <h1 className="truncate text-xl font-bold">{title}</h1>
      {children}
    </div>
  );
}

/** What a screen shows while it has nothing to list: an icon, a sentence that says why, and what to do next. */
export function EmptyState({
  icon,
  title,
  text,
  action,
}: {
  icon: IconName;
  title: string;
  text: string;
  action?: { to: string; label: string };
}) {
  return (
    <div data-empty-state className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="rounded-full bg-slate-100 p-4 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        <Icon name={icon} className="h-8 w-8" />
      </span>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="max-w-sm text-slate-600 dark:text-slate-400">{text}</p>
      {action ? (
        <Link to={action.to} className="btn-primary mt-2 w-auto">
          {action.label}
        </Link>
      ) : null}
    </div>
  );
}
