import { formatPrice } from '../money';
import { PLACEHOLDER } from './fill';
import { SiteError } from './site-error';
import type { SiteSettings } from './site.schema';

export { fill } from './fill';

/**
 * A site folder's copy files (pages' and e-mails' words, JSON of plain strings) checked against
 * the default site's file of the same name, which is their schema: the same fields, each of the
 * same type (a list may be longer or shorter, each item shaped as the default's items: their
 * fields, and in each text any placeholder one of them has there). Site terms
 * (`{program}`, `{price:standard}`…) are filled in when the file is read; any other `{placeholder}`
 * is filled by the code that shows the text, so it must be one the default's text also has.
 */
export type Terms = Readonly<Record<string, string>>;

/** How a plan's price reads: its own `display` template, or one derived from its kind. */
function planDisplayText(plan: SiteSettings['plans'][number], currency: string): string {
  const template =
    plan.display ??
    (plan.kind === 'subscription' ? `{amount}/${plan.interval}` : plan.instalments ? '{amount}/month for {instalments} months' : '{amount} one-time');
  return template.replaceAll('{amount}', formatPrice(plan.amount, currency)).replaceAll('{instalments}', String(plan.instalments ?? 1));
}

/** Settings as the code reads them: each plan with its display text derived once, where it is read. */
export type Site = Omit<SiteSettings, 'plans'> & { plans: (SiteSettings['plans'][number] & { displayText: string })[] };

export function withDisplayTexts<T extends Pick<SiteSettings, 'plans' | 'currency'>>(settings: T): T & Pick<Site, 'plans'> {
  return { ...settings, plans: settings.plans.map((plan) => ({ ...plan, displayText: planDisplayText(plan, settings.currency) })) };
}

/**
 * `{money:7500}`: an amount in whole units of the site's currency that is no plan's price (a tier
 * the copy describes), shown as prices are ('$7,500' or '€7,500').
 */
const MONEY_TERM = /^money:(\d+)$/;

/** The terms every copy file may use, from site.json (and `{money:<amount>}`, above). */
export function siteTerms(settings: SiteSettings): Terms {
  const terms: Record<string, string> = {
    brand: settings.brand.name,
    program: settings.brand.programName,
    method: settings.brand.methodName,
    founder: settings.brand.founderName,
    siteUrl: settings.brand.siteUrl,
    currency: settings.currency,
    guarantee: settings.guarantee.name,
    'guarantee:title': settings.guarantee.title,
    'guarantee:short': settings.guarantee.short,
    'guarantee:period': settings.guarantee.period,
  };
  for (const plan of settings.plans) {
    terms[`price:${plan.id}`] = formatPrice(plan.amount, settings.currency);
    terms[`plan:${plan.id}`] = planDisplayText(plan, settings.currency);
    terms[`name:${plan.id}`] = plan.name;
    if (plan.instalments) {
      terms[`instalments:${plan.id}`] = String(plan.instalments);
      terms[`total:${plan.id}`] = formatPrice(plan.amount * plan.instalments, settings.currency);
    }
  }
  return terms;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const kindOf = (value: unknown): string => (Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value === 'string' ? 'text' : typeof value);

function placeholdersOf(text: string): Set<string> {
  return new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]));
}

/** Lists of a merged item shape that one of the default's items leaves empty: a seller's may be empty too. */
const mayBeEmpty = new WeakSet<Json[]>();

/**
 * The shape every item of a list must have, from two of the default's items: the first's fields
 * and types, and in each text the placeholders of both (so a seller's first plan card may show a
 * saving although the default's first shows none).
 */
function unionShape(a: Json, b: Json): Json {
  if (typeof a === 'string' && typeof b === 'string') return `${a} ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    const both = [...a, ...b];
    if (a.length === 0 || b.length === 0 || mayBeEmpty.has(a) || mayBeEmpty.has(b)) mayBeEmpty.add(both);
    return both;
  }
  if (kindOf(a) === 'object' && kindOf(b) === 'object') {
    const [x, y] = [a as Record<string, Json>, b as Record<string, Json>];
    return Object.fromEntries(Object.keys(x).map((key) => [key, key in y ? unionShape(x[key], y[key]) : x[key]]));
  }
  return a;
}

/**
 * Checks `value` against `reference` and fills the site terms in; returns the filled copy, or
 * throws a SiteError listing every problem as `file: field: what is wrong`.
 */
export function checkCopy<T>(value: unknown, reference: T, terms: Terms, file: string): T {
  const problems: string[] = [];
  const walk = (got: unknown, want: Json, at: string): Json => {
    const field = at || '(top level)';
    if (kindOf(got) !== kindOf(want)) {
      problems.push(`${file}: ${field}: must be ${kindOf(want) === 'object' ? 'a group of fields' : kindOf(want)}, not ${kindOf(got)}`);
      return want;
    }
    if (typeof want === 'string') return fillText(got as string, want, field);
    if (Array.isArray(want)) {
      const items = got as unknown[];
      if (items.length === 0 && want.length > 0 && !mayBeEmpty.has(want)) problems.push(`${file}: ${field}: must list at least one item`);
      if (want.length === 0) {
        if (items.length > 0) problems.push(`${file}: ${field}: must be an empty list`);
        return [];
      }
      const shape = want.reduce(unionShape);
      return items.map((item, i) => walk(item, shape, `${at}[${i}]`));
    }
    if (want && typeof want === 'object') {
      const obj = got as Record<string, unknown>;
      const out: Record<string, Json> = {};
      for (const key of Object.keys(want)) {
        const path = at ? `${at}.${key}` : key;
        if (!(key in obj)) problems.push(`${file}: ${path}: is missing`);
        else out[key] = walk(obj[key], want[key], path);
      }
      for (const key of Object.keys(obj)) {
        if (!(key in want)) problems.push(`${file}: ${at ? `${at}.${key}` : key}: is not a field of this file (check its spelling)`);
      }
      return out;
    }
    return got as Json;
  };
  const fillText = (text: string, wanted: string, field: string): string => {
    const allowed = placeholdersOf(wanted);
    return text.replace(PLACEHOLDER, (whole, name: string) => {
      if (name in terms) return terms[name];
      const money = MONEY_TERM.exec(name);
      if (money && terms.currency) return formatPrice(Number(money[1]), terms.currency);
      if (allowed.has(name)) return whole;
      const usable = [...allowed].filter((n) => !(n in terms));
      problems.push(`${file}: ${field}: {${name}} is not a term of this site${usable.length ? ` or of this text (it may use ${usable.map((n) => `{${n}}`).join(', ')})` : ''}`);
      return whole;
    });
  };
  const filled = walk(value, reference as Json, '');
  if (problems.length) throw new SiteError(`The site folder has ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return filled as T;
}

/**
 * copy/plan-cards.json beyond its shape: one card for each plan of site.json's offers.upgrade, and
 * each card names a plan of the catalogue, once. Returns each problem as `field: what is wrong`.
 */
export function planCardProblems(cards: readonly { plan: string }[], settings: SiteSettings): string[] {
  const plans = settings.plans.map((p) => p.id);
  const first = new Map<string, number>();
  const problems: string[] = [];
  cards.forEach(({ plan }, i) => {
    if (!plans.includes(plan)) problems.push(`[${i}].plan: '${plan}' is not a plan of site.json (plans: ${plans.join(', ')})`);
    else if (first.has(plan)) problems.push(`[${i}].plan: '${plan}' has a card already ([${first.get(plan)}]): a plan has one card`);
    else first.set(plan, i);
  });
  for (const plan of settings.offers.upgrade) {
    if (!first.has(plan)) problems.push(`(top level): has no card for '${plan}' of site.json offers.upgrade: add one whose "plan" is "${plan}"`);
  }
  return problems;
}

/** What a copy file must say about site.json beyond its shape, by its path in the site folder. */
export const COPY_RULES: Readonly<Record<string, (copy: never, settings: SiteSettings) => string[]>> = {
  'copy/plan-cards.json': planCardProblems,
};
