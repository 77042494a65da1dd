import { useEffect, useRef, type ReactNode } from 'react';
import './page-heading.css';

/**
 * A screen's h1. It takes focus when it appears, so after a route change or a change of view
 * (loading → result) screen readers announce the new page and keyboard users start from its top.
 */
export function PageHeading({ children, className, testId }: { children: ReactNode; className?: string; testId?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1} className={className ? `page-heading ${className}` : 'page-heading'} data-testid={testId}>
      {children}
    </h1>
  );
}
