import { createContext } from "react";

export const INLINE_STYLES_ID = "app-styles";

/**
 * The app's stylesheet, inlined into the document's <head> by the server render (app/entry.server.tsx provides it)
 * rather than linked: a linked stylesheet is a second request the first paint waits for, and on a slow mobile
 * connection each request costs seconds (docs/decisions/inline-stylesheet.md). In the browser the default is read back from that
 * <style> when this module loads (before hydration), so the client renders the same element with the same text:
 * even a render from scratch (React's recovery from a hydration error) keeps the page styled.
 */
export const InlineStylesContext = createContext<string>(
  typeof document === "undefined" ? "" : (document.getElementById(INLINE_STYLES_ID)?.textContent ?? ""),
);
