import type { NavKey, MenuKey } from "~/lib/navigation";

const PATHS: Record<NavKey | MenuKey | "close" | "search" | "menu", string> = {
  home: "M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z",
  search:
    "M10.5 3a7.5 7.5 0 0 1 5.9 12.1l4.8 4.8-1.4 1.4-4.8-4.8A7.5 7.5 0 1 1 10.5 3zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z",
  notifications: "M12 3a6 6 0 0 1 6 6v4l2 3v1H4v-1l2-3V9a6 6 0 0 1 6-6zm-2 16h4a2 2 0 0 1-4 0z",
  bookmarks: "M6 3h12a1 1 0 0 1 1 1v17l-7-4-7 4V4a1 1 0 0 1 1-1z",
  messages: "M4 4h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9l-5 4V5a1 1 0 0 1 1-1z",
  wallet:
    "M4 6h15a1 1 0 0 1 1 1v2h-5a3 3 0 0 0 0 6h5v2a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1zm11 5h6v2h-6a1 1 0 0 1 0-2z",
  live: "M12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6zM6.3 6.3l1.4 1.4a6 6 0 0 0 0 8.6l-1.4 1.4a8 8 0 0 1 0-11.4zm11.4 0a8 8 0 0 1 0 11.4l-1.4-1.4a6 6 0 0 0 0-8.6z",
  profile: "M12 3a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 11c4.4 0 8 2.2 8 5v2H4v-2c0-2.8 3.6-5 8-5z",
  newPost: "M11 4h2v7h7v2h-7v7h-2v-7H4v-2h7z",
  goLive: "M4 6h11a1 1 0 0 1 1 1v3l4-3v10l-4-3v3a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1z",
  settings:
    "M12 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm-1-6h2l.5 2.6 2 .9 2.2-1.5 1.4 1.4-1.5 2.2.9 2 2.5.4v2l-2.6.5-.9 2 1.5 2.2-1.4 1.4-2.2-1.5-2 .9-.4 2.5h-2l-.5-2.6-2-.9-2.2 1.5-1.4-1.4 1.5-2.2-.9-2L2 13v-2l2.6-.5.9-2-1.5-2.2 1.4-1.4 2.2 1.5 2-.9z",
  dashboard: "M4 13h6v7H4zm0-9h6v7H4zm10 0h6v5h-6zm0 7h6v9h-6z",
  vault: "M4 4h16a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 2v12h14V6zm2 9 3-4 2 3 2-2 3 3z",
  becomeCreator: "M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z",
  logout:
    "M10 4H5a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h5v-2H6V6h4zm5.6 3.4L20.2 12l-4.6 4.6-1.4-1.4 2.2-2.2H9v-2h7.4l-2.2-2.2z",
  close: "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z",
  menu: "M4 6h16v2H4zm0 5h16v2H4zm0 5h16v2H4z",
};

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = "h-6 w-6" }: { name: IconName; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={`${className} shrink-0`} aria-hidden="true" focusable="false">
      <path fill="currentColor" fillRule="evenodd" d={PATHS[name]} />
    </svg>
  );
}
