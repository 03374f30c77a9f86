import { createContext } from "react";

/**
 * The app's stylesheet, inlined into the document's <head> by the server render (app/entry.server.tsx) rather than
 * linked: a linked stylesheet is a second request the first paint waits for, and on a slow mobile connection each
 * request costs seconds (README, "Performance"). The browser reads it back from that <style> before hydrating
 * (app/entry.client.tsx), so the client renders the same element with the same text and nothing is re-applied.
 */
export const InlineStylesContext = createContext<string>("");

export const INLINE_STYLES_ID = "app-styles";

/** In the browser: the stylesheet the server inlined into this document. */
export const readInlineStyles = (): string => document.getElementById(INLINE_STYLES_ID)?.textContent ?? "";
