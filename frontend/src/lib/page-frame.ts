/**
 * A frame page (/checkout, /success, /account) arrives with its screen's frame prerendered in
 * `#page-frame`, before an empty `#root` that base.css keeps hidden while the frame is there. The
 * SPA removes the frame in the same commit that shows the route's screen (app/lazy-routes.tsx),
 * so the page never shows both, nor nothing. This file imports nothing: the build reads it.
 */
export const PAGE_FRAME_ID = 'page-frame';

export function removePageFrame(): void {
  document.getElementById(PAGE_FRAME_ID)?.remove();
}
