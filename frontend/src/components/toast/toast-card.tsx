import { useRef, useState, type PointerEvent } from 'react';
import toast, { type Toast } from 'react-hot-toast';
import { common } from '@/content/pages';

/** 'destructive': a failure the user must notice (spec section 8), shown in solid red. */
type ToastTone = 'info' | 'success' | 'error' | 'destructive';

/** What a caller of notify() asks to show. */
export interface Notification {
  title: string;
  description?: string;
  tone?: ToastTone;
}

/** Spec section 9: a toast is dismissed by swiping it right past this distance. */
const SWIPE_DISMISS_PX = 50;

interface ToastCardProps {
  toast: Toast;
  title: string;
  description?: string;
  tone: ToastTone;
}

export function ToastCard({ toast: current, title, description, tone }: ToastCardProps) {
  const swipeStart = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const endSwipe = () => {
    swipeStart.current = null;
    if (offset > SWIPE_DISMISS_PX) toast.dismiss(current.id);
    else setOffset(0);
  };

  return (
    <div
      className={`toast toast--${tone}`}
      data-visible={current.visible}
      data-testid="toast"
      role={tone === 'error' || tone === 'destructive' ? 'alert' : 'status'}
      aria-hidden={current.visible ? undefined : true}
      aria-atomic="true"
      style={offset ? { transform: `translateX(${offset}px)`, opacity: 1 - offset / 200 } : undefined}
      onPointerDown={(event: PointerEvent<HTMLDivElement>) => {
        if (event.pointerType === 'mouse' && event.button !== 0) return;
        swipeStart.current = event.clientX;
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (swipeStart.current !== null) setOffset(Math.max(0, event.clientX - swipeStart.current));
      }}
      onPointerUp={endSwipe}
      onPointerCancel={endSwipe}
    >
      <div className="toast__text">
        <p className="toast__title">{title}</p>
        {description ? <p className="toast__description">{description}</p> : null}
      </div>
      <button
        type="button"
        className="toast__close"
        aria-label={common.dismissNotification}
        onPointerDown={(event) => event.stopPropagation()}
        onClick={() => toast.dismiss(current.id)}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
