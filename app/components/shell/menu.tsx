import { Link } from "@remix-run/react";
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from "react";
import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "~/components/shell/icons";

export interface MenuItem {
  key: string;
  label: string;
  to: string;
  icon: IconName;
  /** Full page load (e.g. /logout, which must not keep client state). */
  reloadDocument?: boolean;
}

/** The space a popover keeps from the screen's edges, and from its button, in CSS pixels. */
const SCREEN_MARGIN = 8;
const BUTTON_GAP = 8;

/**
 * Keeps an open popover on the screen, before it is painted: lined up with its button's edge, it can still reach
 * past the screen's side (a long label, a button near the other edge), and is then moved sideways, back in; opening
 * below a button near the screen's bottom, it opens above the button instead where it fits there.
 */
function useKeepOnScreen(popover: RefObject<HTMLElement>, button: RefObject<HTMLElement>, open: boolean) {
  useLayoutEffect(() => {
    const element = popover.current;
    if (!open || !element) return;
    element.style.translate = "";
    const box = element.getBoundingClientRect();
    const { clientWidth: width, clientHeight: height } = document.documentElement;
    const x =
      box.left < SCREEN_MARGIN
        ? SCREEN_MARGIN - box.left
        : box.right > width - SCREEN_MARGIN
          ? Math.max(SCREEN_MARGIN - box.left, width - SCREEN_MARGIN - box.right)
          : 0;
    let y = 0;
    const anchor = button.current?.getBoundingClientRect();
    if (anchor && box.top >= anchor.bottom && box.bottom > height - SCREEN_MARGIN) {
      const above = anchor.top - BUTTON_GAP - box.height;
      if (above >= SCREEN_MARGIN) y = above - box.top;
    }
    if (x !== 0 || y !== 0) element.style.translate = `${x}px ${y}px`;
  }, [popover, button, open]);
}

/**
 * The behaviour of a WAI-ARIA menu button: opening focuses the first item, arrows (and Home/End) move, Escape
 * closes and returns focus to the button, Tab and a click outside close. Spread `buttonProps` on the button and
 * `menuProps` on the role="menu" element.
 */
export function useMenuButton() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useKeepOnScreen(menu, button, open);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const close = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node))
        setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    const moveTo = (next: number) => {
      event.preventDefault();
      entries[(next + entries.length) % entries.length]?.focus();
    };
    if (event.key === "ArrowDown") moveTo(index + 1);
    else if (event.key === "ArrowUp") moveTo(index - 1);
    else if (event.key === "Home") moveTo(0);
    else if (event.key === "End") moveTo(entries.length - 1);
    else if (event.key === "Escape" || event.key === "Tab") {
      if (event.key === "Escape") event.preventDefault();
      setOpen(false);
      button.current?.focus();
    }
  }

  return {
    open,
    close: () => setOpen(false),
    buttonProps: {
      ref: button,
      type: "button" as const,
      "aria-haspopup": "menu" as const,
      "aria-expanded": open,
      "aria-controls": open ? menuId : undefined,
      onClick: () => setOpen((value) => !value),
    },
    menuProps: { ref: menu, id: menuId, role: "menu", onKeyDown },
  };
}

/** Where a menu opens: above its button, lined up with the button's start or end edge (logical sides). */
const PLACEMENTS = {
  "above-start": "bottom-full mb-2 start-0",
  "above-end": "bottom-full mb-2 end-0",
} as const;

/**
 * A button that opens a menu of links (WAI-ARIA menu button): arrows move, Escape closes and returns focus,
 * a click outside closes. An empty menu says "No items." (spec §9). `placement` lines the menu up with the
 * button's edge nearer the middle of the screen, so it opens towards the middle in either direction of writing.
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
  const { t } = useTranslation();
  const { open, close, buttonProps, menuProps } = useMenuButton();

  return (
    <div className="relative">
      <button {...buttonProps} className={buttonClassName}>
        {children}
        <span className="sr-only">{label}</span>
      </button>
      {open ? (
        <div
          {...menuProps}
          aria-label={label}
          className={`absolute z-40 min-w-[14rem] rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900 ${PLACEMENTS[placement]}`}
        >
          {items.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400">{t("No items.")}</p>
          ) : null}
          {items.map((item) => (
            <Link
              key={item.key}
              to={item.to}
              role="menuitem"
              tabIndex={-1}
              reloadDocument={item.reloadDocument}
              onClick={close}
              className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
            >
              <Icon name={item.icon} className="h-5 w-5" />
              {item.label}
            </Link>
          ))}
        </div>
      ) : null}
    </div>
  );
}
