import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { formText } from '@/lib/form-text';
import { PageHeading } from '@/components/page-heading';
import { adminLogin as copy } from '@/content/admin';
import { pages } from '@/content/pages';
import { ApiError } from '@/lib/api-client';
import { isSpaPath, safeAdminNext } from '../admin-next';
import { useAdminLogin } from '../api/admin-login';
import { useAdminSession } from '../api/get-admin-session';
import '../admin.css';

const ERROR_ID = 'admin-login-error';

export function AdminLoginPage() {
  const [params] = useSearchParams();
  const next = safeAdminNext(params.get('next'));
  const navigate = useNavigate();
  const session = useAdminSession();
  const login = useAdminLogin();
  const password = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  const signedIn = Boolean(session.data);
  useEffect(() => {
    if (!signedIn) return;
    if (isSpaPath(next)) void navigate(next, { replace: true });
    else window.location.replace(next);
  }, [signedIn, next, navigate]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending) return;
    const data = new FormData(event.currentTarget);
    const email = formText(data, 'email').trim();
    const secret = formText(data, 'password');
    if (!email || !secret) {
      setError(email ? copy.passwordRequired : copy.emailRequired);
      return;
    }
    setError(null);
    try {
      await login.mutateAsync({ email, password: secret });
    } catch (failure) {
      setError((failure instanceof ApiError && failure.serverMessage) || copy.failedFallback);
      if (password.current) {
        password.current.value = '';
        password.current.focus();
      }
    }
  }

  return (
    <main className="screen">
      <div className="screen__card admin-login">
        <PageHeading>{pages.adminLogin.heading}</PageHeading>
        <form noValidate onSubmit={handleSubmit} aria-describedby={error ? ERROR_ID : undefined} data-testid="admin-login-form">
          <div className="admin-field">
            <label htmlFor="admin-email">{copy.emailLabel}</label>
            <input id="admin-email" name="email" type="email" autoComplete="username" spellCheck={false} required />
          </div>
          <div className="admin-field">
            <label htmlFor="admin-password">{copy.passwordLabel}</label>
            <input ref={password} id="admin-password" name="password" type="password" autoComplete="current-password" required />
          </div>
          {error ? (
            <p id={ERROR_ID} className="admin-field__error" role="alert" data-testid="admin-login-error">
              {error}
            </p>
          ) : null}
          <button type="submit" className="button button--cta button--block" disabled={login.isPending || signedIn}>
            {login.isPending ? copy.pending : copy.submit}
          </button>
        </form>
      </div>
    </main>
  );
}
