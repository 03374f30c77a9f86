import { createContext } from "react";

/**
 * The per-request CSP nonce, set by the server render for the script tags it emits. In the browser it stays
 * undefined: browsers hide nonces from the DOM, and scripts added after load come from 'self'.
 */
export const NonceContext = createContext<string | undefined>(undefined);
