import { CheckoutCta } from '@/components/checkout-cta';
import { brand } from '@/content/brand';
import { hero } from '@/content/landing';
import { Island } from '@/lib/islands';
import { heroVideoIsland } from './hero-backdrop';

export function HeroSection() {
  return (
    <section className="hero" aria-labelledby="hero-heading" data-testid="section-hero">
      <div className="hero__content container">
        <a className="hero__logo" href={brand.siteUrl} aria-label={hero.logoLabel}>
          <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
            <circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="2.5" />
            <path d="M9 17l5 5 9-11" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span>{brand.name}</span>
        </a>
        <div className="hero__body">
          <h1 id="hero-heading">{hero.headline}</h1>
          <CheckoutCta testId="cta-hero">{hero.cta}</CheckoutCta>
          <p className="hero__reassurance">{hero.reassurance}</p>
          <p className="hero__proof">{hero.socialProof}</p>
        </div>
      </div>
      {/* After the content so the video control is the hero's last tab stop; it is positioned absolutely. */}
      <Island of={heroVideoIsland} />
    </section>
  );
}
