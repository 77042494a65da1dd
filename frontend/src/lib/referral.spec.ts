/// <reference types="jest" />
/**
 * Spec section 4 "Referral resolution" and section 9 "Referral tracking", against the real module
 * in a node environment with just the browser objects it touches: location, cookie, session
 * storage, the affiliate script's global data, timers and <script> insertion.
 */
// env.ts reads the page's settings element once, on import; its one relevant value here is the affiliate id, set per test.
jest.mock('./env', () => ({ env: { firstPromoterId: null } }));

type ReferralModule = typeof import('./referral');
let settings: { firstPromoterId: string | null };
let DEFAULT_REFERRAL_POLL: ReferralModule['DEFAULT_REFERRAL_POLL'];
let INIT_REFERRAL_POLL: ReferralModule['INIT_REFERRAL_POLL'];
let initReferralTracking: ReferralModule['initReferralTracking'];
let resolveReferral: ReferralModule['resolveReferral'];
let waitForTrackingId: ReferralModule['waitForTrackingId'];

const STORAGE_KEY = 'referral_id';
const LONG_ID = 'stored-id-of-21-chars'; // 21 characters: longer than 20, so trusted
const TWENTY_CHARS = 'stored-id-20-chars!!';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

interface FakeBrowser {
  window: {
    location: { search: string; pathname: string };
    sessionStorage: MemoryStorage;
    FPROM?: { data?: { tid?: string | null } };
    fpr?: unknown;
    setInterval: typeof setInterval;
    clearInterval: typeof clearInterval;
  };
  document: { cookie: string; createElement: jest.Mock; head: { appendChild: jest.Mock } };
}

let browser: FakeBrowser;

function setUpBrowser({ search = '', cookie = '', tid, stored }: { search?: string; cookie?: string; tid?: string; stored?: string } = {}) {
  const sessionStorage = new MemoryStorage();
  if (stored !== undefined) sessionStorage.setItem(STORAGE_KEY, stored);
  browser = {
    window: {
      location: { search, pathname: '/' },
      sessionStorage,
      ...(tid === undefined ? {} : { FPROM: { data: { tid } } }),
      // Through the globals, so jest's fake timers (installed per test) drive them.
      setInterval: ((...args: Parameters<typeof setInterval>) => setInterval(...args)) as typeof setInterval,
      clearInterval: (id: Parameters<typeof clearInterval>[0]) => clearInterval(id),
    },
    document: {
      cookie,
      createElement: jest.fn(() => ({ addEventListener: jest.fn() })),
      head: { appendChild: jest.fn() },
    },
  };
  Object.assign(globalThis, { window: browser.window, document: browser.document });
}

const storedReferral = () => browser.window.sessionStorage.getItem(STORAGE_KEY);

beforeEach(() => {
  // Fresh modules per test: load-script remembers the scripts it has added.
  jest.resetModules();
  ({ DEFAULT_REFERRAL_POLL, INIT_REFERRAL_POLL, initReferralTracking, resolveReferral, waitForTrackingId } =
    require('./referral') as ReferralModule);
  settings = jest.requireMock<{ env: typeof settings }>('./env').env;
  setUpBrowser();
});

afterEach(() => {
  jest.useRealTimers();
  Reflect.deleteProperty(globalThis, 'window');
  Reflect.deleteProperty(globalThis, 'document');
});

describe('resolveReferral: the order of the sources', () => {
  it('1. the _fprom_tid cookie wins over the global tid, a long stored value and the URL, and is saved', () => {
    setUpBrowser({ cookie: 'other=1; _fprom_tid=cookie-tid; x=2', tid: 'global-tid', stored: LONG_ID, search: '?fp_ref=url-ref' });
    expect(resolveReferral()).toBe('cookie-tid');
    expect(storedReferral()).toBe('cookie-tid');
  });

  it('1. a URL-encoded cookie value is decoded', () => {
    setUpBrowser({ cookie: '_fprom_tid=a%20b' });
    expect(resolveReferral()).toBe('a b');
  });

  it('1. an empty cookie counts as absent', () => {
    setUpBrowser({ cookie: '_fprom_tid=', tid: 'global-tid' });
    expect(resolveReferral()).toBe('global-tid');
  });

  it("2. without the cookie, the affiliate script's global tid wins over a long stored value and the URL, and is saved", () => {
    setUpBrowser({ tid: 'global-tid', stored: LONG_ID, search: '?via=url-ref' });
    expect(resolveReferral()).toBe('global-tid');
    expect(storedReferral()).toBe('global-tid');
  });

  it('2. a blank global tid counts as absent', () => {
    setUpBrowser({ tid: '  ', search: '?fpr=url-ref' });
    expect(resolveReferral()).toBe('url-ref');
  });

  it('3. a stored value longer than 20 characters wins over the URL and is kept as it is', () => {
    setUpBrowser({ stored: LONG_ID, search: '?fp_ref=url-ref' });
    expect(LONG_ID).toHaveLength(21);
    expect(resolveReferral()).toBe(LONG_ID);
    expect(storedReferral()).toBe(LONG_ID);
  });

  it('3. a stored value of exactly 20 characters is not used: the URL parameter is, and replaces it', () => {
    setUpBrowser({ stored: TWENTY_CHARS, search: '?fp_ref=url-ref' });
    expect(TWENTY_CHARS).toHaveLength(20);
    expect(resolveReferral()).toBe('url-ref');
    expect(storedReferral()).toBe('url-ref');
  });

  it('3. a short stored value alone gives null', () => {
    setUpBrowser({ stored: 'short-id' });
    expect(resolveReferral()).toBeNull();
  });

  it('4. fp_ref wins over via and fpr, and is saved', () => {
    setUpBrowser({ search: '?fpr=third&via=second&fp_ref=first' });
    expect(resolveReferral()).toBe('first');
    expect(storedReferral()).toBe('first');
  });

  it('4. via wins over fpr', () => {
    setUpBrowser({ search: '?fpr=third&via=second' });
    expect(resolveReferral()).toBe('second');
  });

  it('4. fpr alone is used', () => {
    setUpBrowser({ search: '?fpr=third' });
    expect(resolveReferral()).toBe('third');
    expect(storedReferral()).toBe('third');
  });

  it('4. an empty parameter falls through to the next one', () => {
    setUpBrowser({ search: '?fp_ref=&via=second' });
    expect(resolveReferral()).toBe('second');
  });

  it('nothing anywhere: null, and nothing is saved', () => {
    setUpBrowser({ search: '?utm_source=news' });
    expect(resolveReferral()).toBeNull();
    expect(storedReferral()).toBeNull();
  });

  it('storage that throws only loses the saving: the id is still returned', () => {
    setUpBrowser({ search: '?via=url-ref' });
    browser.window.sessionStorage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(resolveReferral()).toBe('url-ref');
  });
});

describe('waitForTrackingId: polling', () => {
  it('has the spec defaults: 3000 ms every 100 ms, and 5000 ms every 200 ms on init', () => {
    expect(DEFAULT_REFERRAL_POLL).toEqual({ timeoutMs: 3000, intervalMs: 100 });
    expect(INIT_REFERRAL_POLL).toEqual({ timeoutMs: 5000, intervalMs: 200 });
  });

  it('answers at once when no affiliate script is configured (nobody would publish an id)', async () => {
    jest.useFakeTimers();
    const interval = jest.spyOn(globalThis, 'setInterval');
    await expect(waitForTrackingId()).resolves.toBeNull();
    expect(interval).not.toHaveBeenCalled();
  });

  it('answers at once with an id that is already there, and saves it', async () => {
    settings.firstPromoterId = 'acct';
    setUpBrowser({ tid: 'global-tid' });
    await expect(waitForTrackingId()).resolves.toBe('global-tid');
    expect(storedReferral()).toBe('global-tid');
  });

  it('by default checks every 100 ms and resolves as soon as the script publishes its tid', async () => {
    settings.firstPromoterId = 'acct';
    jest.useFakeTimers();
    const interval = jest.spyOn(globalThis, 'setInterval');
    let result: string | null | undefined;
    void waitForTrackingId().then((value) => (result = value));
    expect(interval).toHaveBeenCalledWith(expect.any(Function), 100);
    await jest.advanceTimersByTimeAsync(1500);
    expect(result).toBeUndefined();
    browser.window.FPROM = { data: { tid: 'late-tid' } };
    await jest.advanceTimersByTimeAsync(100);
    expect(result).toBe('late-tid');
    expect(storedReferral()).toBe('late-tid');
  });

  it('by default gives up with null after 3000 ms', async () => {
    settings.firstPromoterId = 'acct';
    jest.useFakeTimers();
    let result: string | null | undefined;
    void waitForTrackingId().then((value) => (result = value));
    await jest.advanceTimersByTimeAsync(2900);
    expect(result).toBeUndefined();
    await jest.advanceTimersByTimeAsync(100);
    expect(result).toBeNull();
  });

  it('a cookie set during the wait is found too', async () => {
    settings.firstPromoterId = 'acct';
    jest.useFakeTimers();
    const pending = waitForTrackingId();
    browser.document.cookie = '_fprom_tid=cookie-later';
    await jest.advanceTimersByTimeAsync(100);
    await expect(pending).resolves.toBe('cookie-later');
  });
});

describe('initReferralTracking', () => {
  it('without an affiliate id: saves a URL referral, loads no script and does not poll', () => {
    jest.useFakeTimers();
    const interval = jest.spyOn(globalThis, 'setInterval');
    setUpBrowser({ search: '?via=url-ref' });
    initReferralTracking();
    expect(storedReferral()).toBe('url-ref');
    expect(browser.document.createElement).not.toHaveBeenCalled();
    expect(browser.window.fpr).toBeUndefined();
    expect(interval).not.toHaveBeenCalled();
  });

  it("with an affiliate id: loads the affiliate's script with its account id", () => {
    settings.firstPromoterId = 'acct-123';
    initReferralTracking();
    const script = browser.document.createElement.mock.results[0]?.value as { src?: string };
    expect(browser.document.createElement).toHaveBeenCalledWith('script');
    expect(script.src).toBe('https://cdn.firstpromoter.com/fpr.js');
    expect(browser.document.head.appendChild).toHaveBeenCalledWith(script);
    expect((browser.window.fpr as { q?: unknown[][] }).q).toContainEqual(['init', { cid: 'acct-123' }]);
  });

  it('with an affiliate id and a referral URL parameter: polls every 200 ms for up to 5000 ms', async () => {
    settings.firstPromoterId = 'acct';
    jest.useFakeTimers();
    setUpBrowser({ search: '?fp_ref=url-ref' });
    const interval = jest.spyOn(globalThis, 'setInterval');
    const clear = jest.spyOn(globalThis, 'clearInterval');
    initReferralTracking();
    expect(interval).toHaveBeenCalledWith(expect.any(Function), 200);
    await jest.advanceTimersByTimeAsync(4800);
    expect(clear).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(200);
    expect(clear).toHaveBeenCalled();
  });

  it('with an affiliate id but no referral URL parameter: no init poll', () => {
    settings.firstPromoterId = 'acct';
    jest.useFakeTimers();
    const interval = jest.spyOn(globalThis, 'setInterval');
    initReferralTracking();
    expect(interval).not.toHaveBeenCalled();
  });
});
