import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";

type FetcherResult = { ok: true; message?: string } | { ok: false; message: string; errors: Record<string, string[]> };

/**
 * A fetcher for a form whose result is shown beside it. Once the action succeeds, the password fields inside
 * the element `container` is put on are emptied: a password typed for one action does not stay for the next.
 * `clearOnSuccess` empties the whole form then (a request made, such as a withdrawal, not a setting kept).
 */
export function useFormFetcher({ clearOnSuccess = false }: { clearOnSuccess?: boolean } = {}) {
  const fetcher = useFetcher();
  const container = useRef<HTMLElement & HTMLDivElement>(null);
  const result = fetcher.state === "idle" ? (fetcher.data as FetcherResult | undefined) : undefined;
  useEffect(() => {
    if (!result?.ok) return;
    if (clearOnSuccess) for (const form of container.current?.querySelectorAll("form") ?? []) form.reset();
    for (const input of container.current?.querySelectorAll<HTMLInputElement>('input[type="password"]') ?? [])
      input.value = "";
  }, [result, clearOnSuccess]);
  return { fetcher, container, result, errors: result && !result.ok ? result.errors : {} };
}
