import { createContext } from 'react';

/**
 * How a landing-page island moves on to another page. Inside the SPA it is the router; on the
 * prerendered page the landing islands let the SPA take over (src/landing-islands.tsx). A plain
 * page load is the fallback, and is always correct, only slower.
 */
export type GoTo = (path: string) => void;

export const PageNavigation = createContext<GoTo>((path) => window.location.assign(path));
