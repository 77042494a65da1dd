import { consentSettingsIsland } from '@/features/consent/components/consent-host';
import { LeadCaptureSection } from '@/features/lead-capture/components/lead-capture-section';
import { BenefitsSection } from '@/features/landing/components/benefits-section';
import { FaqSection } from '@/features/landing/components/faq-section';
import { FinalCallSection } from '@/features/landing/components/final-call-section';
import { FounderSection } from '@/features/landing/components/founder-section';
import { GuaranteeSection } from '@/features/landing/components/guarantee-section';
import { HeroSection } from '@/features/landing/components/hero-section';
import { MethodSection } from '@/features/landing/components/method-section';
import { MovementSection } from '@/features/landing/components/movement-section';
import { SalesLetterSection } from '@/features/landing/components/sales-letter-section';
import { ValueStackSection } from '@/features/landing/components/value-stack-section';
import { WhyOnlySection } from '@/features/landing/components/why-only-section';
import { testimonialsIsland } from '@/features/testimonials/components/testimonials-section';
import { Island } from '@/lib/islands';
import '@/features/landing/landing.css';

/**
 * The landing page, sections in the spec's order: prerendered for `/` (src/entry-server.tsx), and
 * rendered by the SPA when a visitor comes back to `/` inside it. The footer exists only in builds
 * with analytics, to reopen the consent banner.
 */
export function LandingPage() {
  return (
    <>
      <main className="landing">
        <HeroSection />
        <SalesLetterSection />
        <MovementSection />
        <MethodSection />
        <BenefitsSection />
        <FounderSection />
        <Island of={testimonialsIsland} />
        <ValueStackSection />
        <WhyOnlySection />
        <GuaranteeSection />
        <FaqSection />
        <FinalCallSection />
        <LeadCaptureSection />
      </main>
      <Island of={consentSettingsIsland} />
    </>
  );
}
