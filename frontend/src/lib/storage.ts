/**
 * Web Storage that never throws: storage can be disabled, full or absent (prerender, private
 * modes), and losing a remembered value must never break the funnel.
 */
type StorageArea = 'sessionStorage' | 'localStorage';

export interface SafeStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  getJson<T>(key: string): T | null;
  setJson(key: string, value: unknown): void;
}

function createSafeStorage(area: StorageArea): SafeStorage {
  const storage = (): Storage | null => {
    try {
      return typeof window === 'undefined' ? null : window[area];
    } catch {
      return null;
    }
  };
  const attempt = <T>(fn: (store: Storage) => T, fallback: T): T => {
    const store = storage();
    if (!store) return fallback;
    try {
      return fn(store);
    } catch {
      return fallback;
    }
  };
  return {
    get: (key) => attempt((store) => store.getItem(key), null),
    set: (key, value) => attempt((store) => store.setItem(key, value), undefined),
    getJson: <T>(key: string) =>
      attempt((store) => {
        const raw = store.getItem(key);
        return raw === null ? null : (JSON.parse(raw) as T);
      }, null),
    setJson: (key, value) => attempt((store) => store.setItem(key, JSON.stringify(value)), undefined),
  };
}

export const sessionStore = createSafeStorage('sessionStorage');
export const localStore = createSafeStorage('localStorage');
