import { useEffect, useRef } from 'react';
import toast, { Toaster } from 'react-hot-toast';
import { common } from '@/content/pages';
import { ToastCard, type Notification } from './toast-card';
import './toast.css';

const TOAST_DURATION_MS = 5000;
/** Every notification shares one id, so a new one replaces the visible one: at most one at a time. */
const TOAST_ID = 'notification';

export function showToast({ title, description, tone = 'info' }: Notification): void {
  toast.custom((current) => <ToastCard toast={current} title={title} description={description} tone={tone} />, {
    id: TOAST_ID,
    duration: TOAST_DURATION_MS,
  });
}

/** The toast area. F8 moves focus into it (spec section 9), so keyboard users can reach a toast. */
export function AppToaster() {
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'F8') return;
      event.preventDefault();
      const target = region.current?.querySelector<HTMLElement>('.toast__close') ?? region.current;
      target?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section ref={region} aria-label={common.notificationsRegion} tabIndex={-1} className="toast-region">
      <Toaster position="top-right" toastOptions={{ duration: TOAST_DURATION_MS }} containerClassName="toast-container" />
    </section>
  );
}
