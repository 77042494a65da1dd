import { useEffect, useRef, useSyncExternalStore } from 'react';
import { consentBanner as copy, consentVendorNames } from '@/content/consent';
import { chooseConsent, consentChoice, isReviewingConsent, subscribeToConsent, type ConsentChoice } from '@/lib/analytics/consent';
import { env } from '@/lib/env';
import './consent.css';

const MESSAGE_ID = 'consent-message';

/** The configured vendors, named as the banner's message names them. */
function configuredVendors(): string[] {
  const vendors: string[] = [];
  if (env.ga4Id) vendors.push(consentVendorNames.ga4);
  if (env.metaPixelId) vendors.push(consentVendorNames.metaPixel);
  return vendors;
}

/**
 * A fixed bar, not a modal: the page stays usable and focus is never trapped. It is first in the
 * document so keyboard users reach it first; when reopened from "Cookie settings" it takes focus
 * and hands it back to that control once the visitor has answered.
 */
export default function ConsentBanner() {
  const vendors = configuredVendors();
  const current = useSyncExternalStore(subscribeToConsent, consentChoice, () => null);
  const reviewing = useSyncExternalStore(subscribeToConsent, isReviewingConsent, () => false);
  const region = useRef<HTMLElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!reviewing) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    region.current?.focus();
  }, [reviewing]);

  function choose(choice: ConsentChoice) {
    const returnTo = opener.current;
    chooseConsent(choice);
    returnTo?.focus();
  }

  return (
    <section
      ref={region}
      className="consent"
      aria-label={copy.label}
      aria-describedby={MESSAGE_ID}
      tabIndex={-1}
      data-testid="consent-banner"
    >
      <p id={MESSAGE_ID} className="consent__message">
        {copy.message(vendors)}
        {current ? ` ${copy.currentChoice[current]}` : null}
      </p>
      <div className="consent__actions">
        <button type="button" className="button consent__button" onClick={() => choose('granted')}>
          {copy.accept}
        </button>
        <button type="button" className="button consent__button" onClick={() => choose('denied')}>
          {copy.decline}
        </button>
      </div>
    </section>
  );
}
