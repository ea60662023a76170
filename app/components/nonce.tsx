/**
 * The CSP nonce of the response being rendered (server only: browsers hide nonces from the DOM,
 * so the client renders an empty one and React leaves the attribute alone when hydrating).
 */
import { createContext, useContext } from "react";

export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
