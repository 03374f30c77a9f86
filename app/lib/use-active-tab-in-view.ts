import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * A row of tabs that scrolls sideways on a phone (the dashboard's, the settings'): after each navigation the current
 * tab (`aria-current="page"`) is scrolled into the row's view, so the screen shows which tab it is on. Only the row
 * scrolls, never the page. Returns the ref for the scrolling list.
 */
export function useActiveTabInView<T extends HTMLElement>() {
  const list = useRef<T>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const row = list.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current) return;
    const tab = current.getBoundingClientRect();
    const frame = row.getBoundingClientRect();
    // Physical edges and scrollLeft agree in both writing directions: a larger scrollLeft shows more of the right.
    if (tab.left < frame.left) row.scrollLeft -= frame.left - tab.left;
    else if (tab.right > frame.right) row.scrollLeft += tab.right - frame.right;
  }, [pathname]);
  return list;
}
