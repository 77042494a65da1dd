import { lazy, Suspense, useSyncExternalStore } from 'react';
import { defineIsland } from '@/lib/islands';
import { isToastHostNeeded, subscribeToToastHost } from './notify';

const AppToaster = lazy(() => import('./toast-runtime').then((runtime) => ({ default: runtime.AppToaster })));

/** Mounts the toast area once the first notification asks for it. */
export function ToastHost() {
  const needed = useSyncExternalStore(subscribeToToastHost, isToastHostNeeded, () => false);
  return needed ? (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  ) : null;
}

/** The toast area of the prerendered landing page, where no app providers exist. */
export const toastIsland = defineIsland('toasts', () => <ToastHost />);
