import type { FormEvent, ReactNode } from "react";
import { useCsrfToken } from "~/lib/session";

/**
 * A form that works before the page's JavaScript does, and without it: until the hydration the browser posts it to
 * `action`, a route action that does the work through the same domain code as the API and redirects back (its
 * submit button names the `intent`). Once the page has hydrated, `onSubmit` does the same the app's own way
 * (shown at once, kept in the outbox offline) and the browser's post is prevented.
 */
export function EarlyForm({
  action,
  onSubmit,
  className,
  children,
}: {
  action: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  className?: string;
  children: ReactNode;
}) {
  const csrfToken = useCsrfToken();
  return (
    <form
      method="post"
      action={action}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event);
      }}
    >
      {csrfToken ? <input type="hidden" name="_csrf" value={csrfToken} /> : null}
      {children}
    </form>
  );
}
