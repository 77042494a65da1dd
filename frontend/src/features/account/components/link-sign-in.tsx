import { ROUTES } from '@contracts/routes';
import { useEffect, useRef, useState } from 'react';
import { account as copy } from '@/content/account';
import { ApiError } from '@/lib/api-client';
import { forgetPageQueryValue } from '@/lib/personal-query';
import { openSession } from '../api/open-session';

/**
 * An opened sign-in link: the token is exchanged for the session only when the visitor presses
 * 'Sign in to your account', never on load, since mail scanners that run a page's scripts would
 * otherwise use the link up. The server's refusal (used, expired) is the caller's to show with
 * the link form; a network failure stays here, with the button to try again.
 */
export function LinkSignIn({ token, onAnswered }: { token: string; onAnswered: (failed: string | null) => void }) {
  const [pending, setPending] = useState(false);
  const [networkError, setNetworkError] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  // The page's one action takes focus, unless the visitor already moved into the page.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.tagName === 'H1') button.current?.focus({ preventScroll: true });
  }, []);

  async function signIn() {
    if (pending) return;
    setPending(true);
    setNetworkError(false);
    try {
      await openSession(token);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        setPending(false);
        setNetworkError(true);
        return;
      }
      // Refused: used up or expired, so a reload must not offer it again.
      forgetLink();
      onAnswered(error.serverMessage ?? copy.signIn.errorFallback);
      return;
    }
    forgetLink();
    onAnswered(null);
  }

  return (
    <div className="account__panel" data-testid="account-link-sign-in">
      <p>{copy.link.intro}</p>
      <button
        ref={button}
        type="button"
        className="button button--cta button--block"
        // aria-disabled rather than disabled: the button keeps the focus while it works.
        aria-disabled={pending || undefined}
        aria-busy={pending || undefined}
        onClick={() => void signIn()}
      >
        {pending ? copy.link.pending : copy.link.submit}
      </button>
      {networkError ? (
        <p className="account__alert" role="alert">
          {copy.signIn.networkError}
        </p>
      ) : null}
    </div>
  );
}

function forgetLink(): void {
  forgetPageQueryValue('token');
  window.history.replaceState(window.history.state, '', ROUTES.account);
}
