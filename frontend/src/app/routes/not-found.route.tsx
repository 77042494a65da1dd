import { Link } from 'react-router-dom';
import { common, pages } from '@/content/pages';

export default function NotFoundRoute() {
  return (
    <main className="screen">
      <div className="screen__card" data-testid="not-found">
        <h1>{pages.notFound.heading}</h1>
        <p>{pages.notFound.body}</p>
        <Link className="button button--secondary" to="/">
          {common.backToHome}
        </Link>
      </div>
    </main>
  );
}
