import type { FetcherWithComponents } from "@remix-run/react";
import type { ReactNode } from "react";
import { useRootData } from "~/root";

/**
 * A fetcher form for one action of a route (`intent`), with the CSRF token and hidden `fields`: the page stays
 * put and its loader data refreshes after the action.
 */
export function IntentForm({
  fetcher,
  intent,
  fields = {},
  action,
  className,
  children,
}: {
  fetcher: FetcherWithComponents<unknown>;
  intent: string;
  fields?: Record<string, string | number>;
  action?: string;
  className?: string;
  children: ReactNode;
}) {
  const csrfToken = useRootData()?.csrfToken;
  return (
    <fetcher.Form method="post" action={action} className={className}>
      {csrfToken ? <input type="hidden" name="_csrf" value={csrfToken} /> : null}
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </fetcher.Form>
  );
}

/** The message of a failed fetcher action (FormResult), if any. */
export function fetcherError(fetcher: FetcherWithComponents<unknown>): string | null {
  const data = fetcher.data as { ok?: boolean; message?: string } | undefined;
  return fetcher.state === "idle" && data && data.ok === false ? (data.message ?? null) : null;
}
