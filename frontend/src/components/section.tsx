import type { ReactNode } from 'react';

type SectionProps = {
  /** Builds the heading's id, which labels the section, and the section's `section-{name}` test id. */
  name: string;
  heading: string;
  intro?: string;
  variant?: 'alt' | 'dark';
  narrow?: boolean;
  children: ReactNode;
};

/** A landing-page section led by the shared header: its heading and an optional intro. */
export function Section({ name, heading, intro, variant, narrow = false, children }: SectionProps) {
  const headingId = `${name}-heading`;
  return (
    <section className={variant ? `section section--${variant}` : 'section'} aria-labelledby={headingId} data-testid={`section-${name}`}>
      <div className={narrow ? 'container container--narrow' : 'container'}>
        <div className="section__header">
          <h2 id={headingId}>{heading}</h2>
          {intro === undefined ? null : <p className="section__intro">{intro}</p>}
        </div>
        {children}
      </div>
    </section>
  );
}
