import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";

export type FetcherResult = { ok: true; message?: string } | { ok: false; message: string; errors: Record<string, string[]> };

/**
 * A fetcher for a form whose result is shown beside it. Once the action succeeds, the password fields inside
 * the element `container` is put on are emptied: a password typed for one action does not stay for the next.
 */
export function useFormFetcher() {
  const fetcher = useFetcher();
  const container = useRef<HTMLElement & HTMLDivElement>(null);
  const result = fetcher.state === "idle" ? (fetcher.data as FetcherResult | undefined) : undefined;
  useEffect(() => {
    if (!result?.ok) return;
    for (const input of container.current?.querySelectorAll<HTMLInputElement>('input[type="password"]') ?? []) input.value = "";
  }, [result]);
  return { fetcher, container, result, errors: result && !result.ok ? result.errors : {} };
}
