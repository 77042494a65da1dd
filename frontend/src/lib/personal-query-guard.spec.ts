/// <reference types="jest" />
/**
 * The address-bar guard and the reading side (pageQuery), in node with a stand-in for the three
 * browser objects they touch: location, history (with its state) and session storage. The
 * browser journeys (tests/e2e/address-bar.spec.ts) check the same against real analytics traffic.
 */
import { guardPersonalQuery, PERSONAL_QUERY } from './personal-query-guard';
import { pageQuery } from './personal-query';

class MemoryStorage {
  readonly items = new Map<string, string>();
  broken = false;
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.broken) throw new Error('QuotaExceededError');
    this.items.set(key, String(value));
  }
}

/** History as the browser keeps it: one entry per push, each with its address and its (cloned) state. */
class FakeHistory {
  entries: { url: string; state: unknown }[];
  index = 0;
  constructor(url: string, state: unknown) {
    this.entries = [{ url, state }];
  }
  get state(): unknown {
    return this.entries[this.index].state;
  }
  get url(): string {
    return this.entries[this.index].url;
  }
  pushState(state: unknown, _unused: string, url?: string | URL | null): void {
    this.entries = this.entries.slice(0, this.index + 1);
    this.entries.push({ url: url == null ? this.url : new URL(url, this.url).href, state: structuredClone(state) });
    this.index += 1;
  }
  replaceState(state: unknown, _unused: string, url?: string | URL | null): void {
    this.entries[this.index] = { url: url == null ? this.url : new URL(url, this.url).href, state: structuredClone(state) };
  }
  back(): void {
    this.index -= 1;
  }
}

const ORIGIN = 'https://funnel.example.com';
let history: FakeHistory;
let storage: MemoryStorage;

/**
 * A page load of `path`: a fresh document runs the guard, as the inline script in its head does.
 * A reload keeps its entry's state and the tab's session storage.
 */
function load(path: string, reload?: { state: unknown }): void {
  history = new FakeHistory(`${ORIGIN}${path}`, reload ? reload.state : null);
  if (!reload) storage = new MemoryStorage();
  const location = {
    get href() {
      return history.url;
    },
    get pathname() {
      return new URL(history.url).pathname;
    },
    get search() {
      return new URL(history.url).search;
    },
  };
  Object.assign(globalThis, { window: { history, location, sessionStorage: storage } });
  guardPersonalQuery(PERSONAL_QUERY);
}

/** What the page's own code reads: the query string as the link wrote it. */
const handOff = () => Object.fromEntries(pageQuery(new URL(history.url).search));
const address = () => history.url.slice(ORIGIN.length);

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('a page load of /checkout or /success', () => {
  it('takes e-mail, name and token out of the address and keeps every other parameter', () => {
    load('/checkout?plan=2-month&email=ann%40example.com&name=Ann+Lee&token=tok-1&referral=partner&source=blackcard#pay');
    expect(address()).toBe('/checkout?plan=2-month&referral=partner&source=blackcard#pay');
    expect(history.entries).toHaveLength(1);
    expect(handOff()).toEqual({
      plan: '2-month',
      referral: 'partner',
      source: 'blackcard',
      email: 'ann@example.com',
      name: 'Ann Lee',
      token: 'tok-1',
    });
  });

  it('matches the path as the router does: any case, a trailing slash', () => {
    load('/Success/?payment_intent=pi_1&email=ann%40example.com');
    expect(address()).toBe('/Success/?payment_intent=pi_1');
    expect(handOff()).toEqual({ payment_intent: 'pi_1', email: 'ann@example.com' });
  });

  it('keeps the values over a reload of the cleaned address', () => {
    load('/success?payment_intent=pi_1&email=ann%40example.com&name=Ann&token=tok-1');
    load(address(), { state: history.state });
    expect(address()).toBe('/success?payment_intent=pi_1');
    expect(handOff()).toEqual({ payment_intent: 'pi_1', email: 'ann@example.com', name: 'Ann', token: 'tok-1' });
  });

  it('leaves other pages alone', () => {
    load('/upsell?plan=standard&email=ann%40example.com&name=Ann');
    expect(address()).toBe('/upsell?plan=standard&email=ann%40example.com&name=Ann');
    expect(history.state).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('an address without personal values is a visit without them', () => {
    load('/checkout?plan=standard');
    expect(address()).toBe('/checkout?plan=standard');
    expect(handOff()).toEqual({ plan: 'standard' });
  });
});

describe("the SPA's own navigations", () => {
  beforeEach(() => load('/'));

  it('a push to /checkout never puts the values in the address, and each entry keeps its own', () => {
    window.history.pushState({ idx: 1 }, '', '/checkout?plan=standard&email=ann%40example.com&name=Ann');
    expect(address()).toBe('/checkout?plan=standard');
    expect(history.state).toMatchObject({ idx: 1 });
    expect(handOff()).toEqual({ plan: 'standard', email: 'ann@example.com', name: 'Ann' });

    window.history.pushState({ idx: 2 }, '', '/checkout?plan=2-month&email=bo%40example.com&name=Bo');
    expect(handOff()).toEqual({ plan: '2-month', email: 'bo@example.com', name: 'Bo' });
    history.back();
    expect(handOff()).toEqual({ plan: 'standard', email: 'ann@example.com', name: 'Ann' });
  });

  it('a later push without them finds none, but an anchor on the same page keeps them', () => {
    window.history.pushState(null, '', '/checkout?plan=standard&email=ann%40example.com&name=Ann');
    window.history.pushState(null, '', '/checkout?plan=standard#summary');
    expect(handOff()).toEqual({ plan: 'standard', email: 'ann@example.com', name: 'Ann' });
    window.history.pushState(null, '', '/checkout?plan=6-month');
    expect(handOff()).toEqual({ plan: '6-month' });
  });

  it('the router rewriting the current entry (its start, a replace to the same page) keeps the values', () => {
    window.history.pushState(null, '', '/success?subscription_id=sub_1&email=ann%40example.com&token=tok-1');
    window.history.replaceState({ idx: 0, key: 'k' }, '');
    expect(history.state).toMatchObject({ idx: 0, key: 'k' });
    window.history.replaceState({ idx: 0, key: 'k2' }, '', '/success?subscription_id=sub_1');
    expect(handOff()).toEqual({ subscription_id: 'sub_1', email: 'ann@example.com', token: 'tok-1' });
  });

  it('a replace to another page takes nothing along', () => {
    window.history.pushState(null, '', '/success?subscription_id=sub_1&email=ann%40example.com');
    window.history.replaceState(null, '', '/blackcard-upsell?email=ann%40example.com');
    expect(address()).toBe('/blackcard-upsell?email=ann%40example.com');
    expect(history.state).toBeNull();
  });

  it('keeps the values of the latest entries only', () => {
    for (let visit = 0; visit < PERSONAL_QUERY.keep + 5; visit += 1) {
      window.history.pushState(null, '', `/checkout?plan=standard&email=visit${visit}%40example.com&name=V`);
    }
    const stored = JSON.parse(storage.getItem(PERSONAL_QUERY.storageKey) ?? '{}') as Record<string, unknown>;
    expect(Object.keys(stored)).toHaveLength(PERSONAL_QUERY.keep);
    expect(handOff()).toMatchObject({ email: `visit${PERSONAL_QUERY.keep + 4}@example.com` });
  });

  it('with session storage refused, the entry itself carries the values', () => {
    storage.broken = true;
    window.history.pushState(null, '', '/checkout?plan=standard&email=ann%40example.com&name=Ann');
    expect(address()).toBe('/checkout?plan=standard');
    expect(handOff()).toEqual({ plan: 'standard', email: 'ann@example.com', name: 'Ann' });
  });
});
