import { useId, useState } from "react";

/**
 * A text the server already rendered, reused by the hydration instead of computing it again: formatting with
 * `Intl` (a price, `formatCents`) loads ICU's data on a browser's first use, 80–185 ms on an emulated phone, and
 * during the hydration that sits in its long task. Returns the element id to put on the element whose whole text
 * this is, and the text: the server's while `deps` (whatever the text depends on) stay as they were at the
 * hydration, else `compute()`. Outside the hydration (the root marks the document hydrated, app/root.tsx) it
 * always computes. `LocalTime` keeps its dates this way, and a locked post its price.
 */
export function useServerText(deps: string, compute: () => string): [id: string, text: string] {
  const id = useId();
  const [kept] = useState(() =>
    typeof document === "undefined" || document.documentElement.dataset.hydrated !== undefined
      ? null
      : { deps, text: document.getElementById(id)?.textContent ?? null },
  );
  return [id, kept?.text != null && kept.deps === deps ? kept.text : compute()];
}
