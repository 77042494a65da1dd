import { consentSettings } from '@/content/consent';
import { reviewConsent } from '@/lib/analytics/consent';
import './consent-settings.css';

/** The way back to the consent banner after answering it. */
export default function ConsentSettingsFooter() {
  return (
    <footer className="consent-footer">
      <button type="button" className="consent-footer__button" onClick={reviewConsent} data-testid="consent-settings">
        {consentSettings.open}
      </button>
    </footer>
  );
}
