import { PageHeading } from '@/components/page-heading';
import { externalLinks } from '@/content/config';
import { success as copy } from '@/content/success';
import { ExternalLink } from './external-link';

/** The post-purchase welcome with next steps (spec section 2, /success, without the offer). */
export function WelcomeView() {
  const { course, app, community } = copy.welcome.steps;
  return (
    <main className="success">
      <div className="container success__container success__container--narrow" data-testid="success-welcome">
        <header className="success__hero">
          <span className="success__check" aria-hidden="true">
            ✓
          </span>
          <PageHeading>{copy.welcome.heading}</PageHeading>
        </header>
        <div className="success__tiles">
          <section className="success__tile">
            <h2>{copy.welcome.checkEmail.title}</h2>
            <p>{copy.welcome.checkEmail.body}</p>
          </section>
          <section className="success__tile">
            <h2>{copy.welcome.qa.title}</h2>
            <p>{copy.welcome.qa.body}</p>
          </section>
        </div>
        <section className="success__steps" aria-labelledby="next-steps-heading">
          <h2 id="next-steps-heading">{copy.welcome.nextStepsHeading}</h2>
          <ol>
            <li>
              <h3>{course.title}</h3>
              <p>{course.body}</p>
            </li>
            <li>
              <h3>{app.title}</h3>
              <p>{app.body}</p>
              <ExternalLink href={externalLinks.appDownload} className="success__inline-link" testId="app-download">
                {app.link}
              </ExternalLink>
            </li>
            <li>
              <h3>{community.title}</h3>
              <p>{community.body}</p>
            </li>
          </ol>
        </section>
        <p className="success__guarantee">{copy.welcome.guarantee}</p>
        <div className="success__actions">
          <ExternalLink href={externalLinks.membersRegister} className="button button--cta" testId="register-account">
            {copy.welcome.register}
          </ExternalLink>
          <a href="/" className="button button--secondary">
            {copy.backToHome}
          </a>
        </div>
      </div>
    </main>
  );
}
