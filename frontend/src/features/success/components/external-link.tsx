import type { ReactNode } from 'react';
import { success as copy } from '@/content/success';

/** A link to one of the configured external hosts: a new tab, without giving it a handle on this page. */
export function ExternalLink({
  href,
  className,
  children,
  testId,
}: {
  href: string;
  className: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <a href={href} className={className} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {children}
      <span className="visually-hidden"> {copy.newTab}</span>
    </a>
  );
}
