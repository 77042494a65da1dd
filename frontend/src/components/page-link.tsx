import { useContext, type MouseEvent, type ReactNode } from 'react';
import { PageNavigation } from '@/lib/page-navigation';
import { useHydrated } from '@/lib/use-hydrated';

/**
 * A link to another page of the funnel that works on a prerendered page and inside the SPA: a plain
 * click goes through PageNavigation (the router, or the SPA taking over), any other click (new tab,
 * modifier keys) is the browser's. In the prerendered markup it has no href yet: its target depends
 * on the visitor's query string, so it becomes a link (with its href and its test id) only once
 * React owns it and knows the target: nothing can follow it to the wrong address before.
 */
export function PageLink({ to, className, children, testId }: { to: string; className?: string; children: ReactNode; testId?: string }) {
  const goTo = useContext(PageNavigation);
  const hydrated = useHydrated();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    goTo(to);
  };
  return (
    <a href={hydrated ? to : undefined} className={className} onClick={onClick} data-testid={hydrated ? testId : undefined}>
      {children}
    </a>
  );
}
