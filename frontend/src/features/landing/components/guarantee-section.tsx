import { guarantee } from '@/content/landing-sections';

export function GuaranteeSection() {
  return (
    <section className="section section--alt" aria-labelledby="guarantee-heading" data-testid="section-guarantee">
      <div className="container container--narrow">
        <div className="card guarantee">
          <svg className="guarantee__seal" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
            <path d="M24 4l16 6v12c0 10-7 18-16 22C15 40 8 32 8 22V10z" fill="currentColor" opacity="0.15" />
            <path
              d="M24 4l16 6v12c0 10-7 18-16 22C15 40 8 32 8 22V10z"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinejoin="round"
            />
            <path d="M17 24l5 5 9-10" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <h2 id="guarantee-heading" className="guarantee__badge">
            {guarantee.badge}
          </h2>
          <p className="guarantee__promise">{guarantee.promise}</p>
          <p>{guarantee.body}</p>
          <p className="guarantee__signature">{guarantee.signature}</p>
        </div>
      </div>
    </section>
  );
}
