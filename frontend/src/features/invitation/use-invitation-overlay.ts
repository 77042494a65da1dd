import { useEffect, useState } from 'react';

/** Spec section 9: triggers past 50 px of scroll, stays 2000 ms, then fades over 1000 ms. */
const OVERLAY_TRIGGER_PX = 50;
const OVERLAY_SHOW_MS = 2000;
const OVERLAY_FADE_MS = 1000;

export type OverlayPhase = 'idle' | 'showing' | 'fading' | 'hidden';

/** Holds the page still while the overlay is up; the scrollbar's width is kept so nothing shifts sideways. */
function lockPageScroll(): () => void {
  const root = document.documentElement;
  const { overflow, paddingRight } = root.style;
  const scrollbar = window.innerWidth - root.clientWidth;
  root.style.overflow = 'hidden';
  if (scrollbar > 0) root.style.paddingRight = `${scrollbar}px`;
  return () => {
    root.style.overflow = overflow;
    root.style.paddingRight = paddingRight;
  };
}

/**
 * The 'Are you one of us?' overlay (spec section 4): idle → showing on the first scroll beyond
 * 50 px, page scroll locked → fading after 2000 ms → hidden after a further 1000 ms, scroll
 * restored. It starts only from idle, so it plays once per visit of the page.
 */
export function useInvitationOverlay(): OverlayPhase {
  const [phase, setPhase] = useState<OverlayPhase>('idle');

  useEffect(() => {
    if (phase !== 'idle') return;
    const onScroll = () => {
      if (window.scrollY > OVERLAY_TRIGGER_PX) setPhase('showing');
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    // The prerendered page can be scrolled before its script runs: a scroll already past 50 px
    // counts as the first. Checked after this commit's effects, once a route change has reset the
    // scroll position (app/route-frame.ts), so the previous page's position never counts.
    const initial = window.setTimeout(onScroll);
    return () => {
      window.clearTimeout(initial);
      window.removeEventListener('scroll', onScroll);
    };
  }, [phase]);

  const visible = phase === 'showing' || phase === 'fading';
  useEffect(() => {
    if (!visible) return;
    return lockPageScroll();
  }, [visible]);

  useEffect(() => {
    if (phase === 'showing') {
      const timer = window.setTimeout(() => setPhase('fading'), OVERLAY_SHOW_MS);
      return () => window.clearTimeout(timer);
    }
    if (phase === 'fading') {
      const timer = window.setTimeout(() => setPhase('hidden'), OVERLAY_FADE_MS);
      return () => window.clearTimeout(timer);
    }
    return undefined;
  }, [phase]);

  return phase;
}
