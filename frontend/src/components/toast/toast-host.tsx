import { lazy, Suspense, useSyncExternalStore } from 'react';
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
