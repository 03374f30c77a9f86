import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The header's way back (to the list, to the chat): an arrow that points back in either reading direction. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="link shrink-0 text-sm">
      <span aria-hidden="true" className="rtl:hidden">
        ←{" "}
      </span>
      <span aria-hidden="true" className="hidden rtl:inline">
        →{" "}
      </span>
      {children}
    </Link>
  );
}
