import { startTransition, useCallback, useEffect, useRef, useState } from 'react';

export interface RequestState<T> {
  data: T | undefined;
  error: unknown;
  /** No answer yet for the current key (also while idle: a null key). */
  isPending: boolean;
  /** A call for the current key is in flight (the first, or a refetch). */
  isFetching: boolean;
  isSuccess: boolean;
  isError: boolean;
  /** Asks again for the current key; the last answer stays shown until the new one arrives. */
  refetch: () => void;
}

interface Answer<T> {
  key: string;
  data?: T;
  error?: unknown;
  failed: boolean;
}

/**
 * One GET-like call per key, for the screens that are islands of a prerendered page, where the
 * query library would cost more code than the page may ship: the call starts when the key is set
 * (null: idle), a new key aborts the previous call, and an answer for an old key is dropped.
 * `load` may change identity between renders; the key says when to call again. `transition`: the
 * answer renders as a transition, in slices that leave the main thread free (a whole page's content).
 */
export function useRequest<T>(
  key: string | null,
  load: (signal: AbortSignal) => Promise<T>,
  { transition = false }: { transition?: boolean } = {},
): RequestState<T> {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [fetching, setFetching] = useState<{ key: string; round: number } | null>(null);
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setFetching({ key, round });
    const settle = (next: Answer<T>) => {
      if (controller.signal.aborted) return;
      const update = () => {
        setAnswer(next);
        setFetching(null);
      };
      if (transition) startTransition(update);
      else update();
    };
    loadRef.current(controller.signal).then(
      (data) => settle({ key, data, failed: false }),
      (error: unknown) => settle({ key, error, failed: true }),
    );
    return () => controller.abort();
  }, [key, round, transition]);

  const refetch = useCallback(() => setRound((n) => n + 1), []);
  const current = answer !== null && answer.key === key ? answer : null;
  return {
    data: current?.data,
    error: current?.error,
    isPending: current === null,
    isFetching: key !== null && (fetching?.key === key || current === null),
    isSuccess: current !== null && !current.failed,
    isError: current?.failed ?? false,
    refetch,
  };
}
