import { useEffect, useState, type RefObject } from 'react';
import { prefersReducedMotion } from '@/lib/user-preferences';

/** Spec section 9: a section reveals when 10% of it is visible, with a bottom margin of -100 px. */
const REVEAL_OPTIONS: IntersectionObserverInit = { threshold: 0.1, rootMargin: '0px 0px -100px 0px' };

/**
 * static: visible, never hidden (reduced motion, no observer, or already on screen);
 * waiting: below the fold, hidden until it scrolls in; shown: revealed.
 */
export type RevealState = 'static' | 'waiting' | 'shown';

/**
 * Content is visible unless the observer has reported it below the fold, so a section is never
 * left hidden by an observer that does not fire, and nothing on screen blinks out on load.
 */
export function useScrollReveal(ref: RefObject<HTMLElement | null>): RevealState {
  const [state, setState] = useState<RevealState>('static');

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined' || prefersReducedMotion()) return;
    let first = true;
    const observer = new IntersectionObserver(([entry]) => {
      const wasFirst = first;
      first = false;
      if (entry.isIntersecting) {
        setState((current) => (current === 'waiting' ? 'shown' : current));
        observer.disconnect();
      } else if (wasFirst && entry.boundingClientRect.top >= window.innerHeight) {
        setState('waiting');
      } else if (wasFirst) {
        observer.disconnect();
      }
    }, REVEAL_OPTIONS);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);

  return state;
}
