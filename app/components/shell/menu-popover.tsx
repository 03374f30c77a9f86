import { Link } from "@remix-run/react";
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type RefObject,
  type SetStateAction,
} from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/shell/icons";
import type { MenuItem } from "~/components/shell/menu";

/**
 * What an open menu does (WAI-ARIA menu button), in a file of its own: it loads when a menu first opens (or its
 * button is pointed at), not with the page.
 */

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
 * The behaviour of an open menu: opening focuses the first item, arrows (and Home/End) move, Escape closes and
 * returns focus to the button, Tab and a click outside close. Returns the menu's key handler.
 */
function useOpenMenu(
  open: boolean,
  setOpen: Dispatch<SetStateAction<boolean>>,
  button: RefObject<HTMLButtonElement>,
  menu: RefObject<HTMLDivElement>,
) {
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
  }, [open, setOpen, button, menu]);

  return function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
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
  };
}

/**
 * A menu button's state and behaviour, for a menu whose items are its own (a post's "…" menu). Spread
 * `buttonProps` on the button and `menuProps` on the role="menu" element.
 */
export function useMenuButton() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const onKeyDown = useOpenMenu(open, setOpen, button, menu);
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

/** The open menu of MenuButton (menu.tsx): its links, "No items." when there are none. */
export default function MenuPopover({
  id,
  label,
  items,
  className,
  button,
  setOpen,
  onShown,
}: {
  id: string;
  label: string;
  items: MenuItem[];
  className: string;
  button: RefObject<HTMLButtonElement>;
  setOpen: Dispatch<SetStateAction<boolean>>;
  /** Told when the menu is on the page (true) and gone (false), for its button's aria-expanded. */
  onShown: (shown: boolean) => void;
}) {
  const { t } = useTranslation();
  const menu = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    onShown(true);
    return () => onShown(false);
  }, [onShown]);
  const onKeyDown = useOpenMenu(true, setOpen, button, menu);
  return (
    <div ref={menu} id={id} role="menu" onKeyDown={onKeyDown} aria-label={label} className={className}>
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
          onClick={() => setOpen(false)}
          className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
        >
          <Icon name={item.icon} className="h-5 w-5" />
          {item.label}
        </Link>
      ))}
    </div>
  );
}
