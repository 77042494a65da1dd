import { useCallback, useContext, useMemo, useState } from 'react';
import { ROUTES } from '@contracts/routes';
import { defineIsland } from '@/lib/islands';
import { PageNavigation, type GoTo } from '@/lib/page-navigation';
import { pageQuery } from '@/lib/personal-query';
import { useHydrated } from '@/lib/use-hydrated';
import { frameHandOff, readCheckoutHandOff, readSetupReturn } from '../checkout-hand-off';
import { CheckoutPage } from './checkout-page';

/**
 * The prerendered /checkout: the whole screen is one island, rendered as its frame until React owns
 * the page and the visitor's query is known. A move to /checkout itself (a fresh attempt after a
 * failed authentication) stays on this page: the address changes and the screen starts over, as
 * the SPA's route does on a new location.
 */
function PrerenderedCheckoutPage() {
  const goTo = useContext(PageNavigation);
  const hydrated = useHydrated();
  const [attempt, setAttempt] = useState(0);
  const stayOrGo = useCallback<GoTo>(
    (path, options) => {
      const target = new URL(path, window.location.href);
      if (target.pathname !== ROUTES.checkout) return goTo(path, options);
      const address = `${target.pathname}${target.search}${target.hash}`;
      if (options?.replace) window.history.replaceState(null, '', address);
      else window.history.pushState(null, '', address);
      setAttempt((n) => n + 1);
    },
    [goTo],
  );
  // The query is read once per attempt, while its history entry is the current one (lib/personal-query.ts).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- each attempt is a new history entry to read
  const params = useMemo(() => (hydrated ? pageQuery(window.location.search) : null), [hydrated, attempt]);
  const handOff = useMemo(() => (params ? readCheckoutHandOff(params) : frameHandOff), [params]);
  const setupReturn = useMemo(() => (params ? readSetupReturn(params) : null), [params]);
  return (
    <PageNavigation value={stayOrGo}>
      <CheckoutPage key={attempt} handOff={handOff} setupReturn={setupReturn} />
    </PageNavigation>
  );
}

export const checkoutIsland = defineIsland('checkout', () => <PrerenderedCheckoutPage />);
