import { Link } from 'react-router-dom';
import { common } from '@/content/pages';

/** A screen whose feature has not shipped yet: its real heading and a way home, nothing invented. */
export function PlaceholderScreen({ heading }: { heading: string }) {
  return (
    <main className="screen">
      <div className="screen__card">
        <h1>{heading}</h1>
        <Link className="button button--secondary" to="/">
          {common.backToHome}
        </Link>
      </div>
    </main>
  );
}
