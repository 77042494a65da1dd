import { useEffect, useRef, type ReactNode } from 'react';
import { useHydrated } from '@/lib/use-hydrated';
import './page-heading.css';

/**
 * A screen's h1. It takes focus when it appears, so after a route change or a change of view
 * (loading → result) screen readers announce the new page and keyboard users start from its top.
 */
export function PageHeading({ children, className, testId }: { children: ReactNode; className?: string; testId?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // On a prerendered page the heading was there before React: a visitor who has already moved
  // into the page (a field, a link) keeps their place when it hydrates.
  const prerendered = !useHydrated();
  useEffect(() => {
    const active = document.activeElement;
    if (prerendered && active && active !== document.body) return;
    heading.current?.focus({ preventScroll: true });
    // Only on arrival: `prerendered` is what the first render saw.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1} className={className ? `page-heading ${className}` : 'page-heading'} data-testid={testId}>
      {children}
    </h1>
  );
}
