import { useRef, type ReactNode } from 'react';
import { useScrollReveal } from '../use-scroll-reveal';

/** A section that fades (or stamps) in as it scrolls into view. */
export function RevealSection({
  name,
  labelledBy,
  variant = 'fade',
  className,
  children,
}: {
  name: string;
  labelledBy: string;
  variant?: 'fade' | 'stamp';
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const state = useScrollReveal(ref);
  return (
    <section
      ref={ref}
      className={`reveal reveal--${variant}${className ? ` ${className}` : ''}`}
      data-reveal={state}
      aria-labelledby={labelledBy}
      data-testid={`blackcard-${name}`}
    >
      {children}
    </section>
  );
}
