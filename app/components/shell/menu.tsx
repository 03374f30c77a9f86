import { lazy, useId, useRef, useState, type ReactNode } from "react";
import { UnlessLoadFails } from "~/components/unless-load-fails";
import type { IconName } from "~/components/shell/icons";

export interface MenuItem {
  key: string;
  label: string;
  to: string;
  icon: IconName;
  /** Full page load (e.g. /logout, which must not keep client state). */
  reloadDocument?: boolean;
}

const loadPopover = () => import("~/components/shell/menu-popover");
const MenuPopover = lazy(loadPopover);

/** Where a menu opens: above its button, lined up with the button's start or end edge (logical sides). */
const PLACEMENTS = {
  "above-start": "bottom-full mb-2 start-0",
  "above-end": "bottom-full mb-2 end-0",
} as const;

/**
 * A button that opens a menu of links (WAI-ARIA menu button): arrows move, Escape closes and returns focus,
 * a click outside closes (menu-popover.tsx, loaded when the button is first pointed at or used). An empty menu
 * says "No items." (spec §9). `placement` lines the menu up with the button's edge nearer the middle of the
 * screen, so it opens towards the middle in either direction of writing.
 */
export function MenuButton({
  label,
  items,
  children,
  buttonClassName,
  placement,
}: {
  label: string;
  items: MenuItem[];
  children: ReactNode;
  buttonClassName: string;
  placement: keyof typeof PLACEMENTS;
}) {
  const [open, setOpen] = useState(false);
  // Whether the menu is on the page: it opens once its file has loaded, and the button says so only then.
  const [shown, setShown] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={shown}
        aria-controls={shown ? menuId : undefined}
        onPointerEnter={() => void loadPopover()}
        onFocus={() => void loadPopover()}
        onClick={() => setOpen((value) => !value)}
        className={buttonClassName}
      >
        {children}
        <span className="sr-only">{label}</span>
      </button>
      {open ? (
        <UnlessLoadFails onFailed={() => setOpen(false)}>
          <MenuPopover
            id={menuId}
            label={label}
            items={items}
            button={button}
            setOpen={setOpen}
            onShown={setShown}
            className={`absolute z-40 min-w-[14rem] rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900 ${PLACEMENTS[placement]}`}
          />
        </UnlessLoadFails>
      ) : null}
    </div>
  );
}
