import { z } from 'zod';
import { SiteError } from './site-error';

/**
 * The shape of a site folder's `site.json`: everything a seller changes about the business (brand,
 * currency, plans). Read at build (frontend/vite/site.plugin.ts) and at boot (./site.ts); nothing
 * else in the code holds a name, a price or a currency.
 */
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1 to 40 lower-case letters, digits or -, starting with a letter or digit');
const text = z.string().trim().min(1, 'must not be empty');
/** An e-mail address (the rules of MAIL_FROM and OWNER_EMAIL before they moved here). */
const address = (shape: RegExp) => z.string().regex(shape, 'must be an e-mail address, e.g. receipts@example.com');

const plan = z
  .object({
    id: slug,
    name: text,
    /** Whole units of the site's currency (10 is $10 in USD; 1000 is ¥1,000 in JPY). */
    amount: z.number().positive('must be more than 0'),
    kind: z.enum(['subscription', 'one-time']),
    /** How often a subscription renews. */
    interval: z.enum(['month', 'year']).optional(),
    /** A one-time plan paid in this many monthly charges of `amount`, the first at checkout. */
    instalments: z.number().int().min(2, 'must be 2 or more').max(36, 'must be 36 or fewer').optional(),
    /** How the price reads, with `{amount}` and `{instalments}`; derived when absent. */
    display: z
      .string()
      .regex(/\{amount\}/, 'must contain {amount}')
      .optional(),
    /** What the plan gives access to: plans of one product share one membership. */
    product: slug,
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.kind === 'subscription' && !p.interval) ctx.addIssue({ code: 'custom', path: ['interval'], message: "a subscription needs an interval: 'month' or 'year'" });
    if (p.kind === 'subscription' && p.instalments) ctx.addIssue({ code: 'custom', path: ['instalments'], message: 'only a one-time plan can be paid in instalments' });
    if (p.kind === 'one-time' && p.interval) ctx.addIssue({ code: 'custom', path: ['interval'], message: 'a one-time plan does not renew: remove interval' });
  });

const planRef = slug;

/**
 * The parts the pages give each plan (spec sections 2 and 3), by plan id: the code names these
 * roles, never a plan, so a seller's catalogue needs no code change. Every plan is on sale at
 * /checkout?plan=<id>.
 */
const offers = z
  .object({
    /** The plan an unknown or missing ?plan= falls back to; the landing page, /blackcard and the declines of both upsells sell it; /success offers the upgrade after it. */
    default: planRef,
    /** The upgrade offer's plan cards on /upsell and /success, in order. */
    upgrade: z.array(planRef).max(6, 'must list 6 plans or fewer').default([]),
    /** The upgrade plan of /upsell's main buttons; the upgrade's first when absent. */
    upgradeCta: planRef.optional(),
    /** The plan /blackcard-upsell sells (Level Two), listed with its own contents at /checkout; absent: that page sells the default plan. */
    levelTwo: planRef.optional(),
    /** Instalment plans whose pay button reads 'Payment 1 of N' instead of 'Pay'. */
    firstInstalmentButton: z.array(planRef).default([]),
    /** The order bump: a one-time plan /checkout offers as an unticked add-on to every other plan, paid with its first charge; absent: no add-on. */
    bump: planRef.optional(),
  })
  .strict();

/** Which optional parts of the funnel the site has; each is on when left out. */
const pages = z
  .object({
    /**
     * The invitation funnel (spec sections 2 and 8): /invitation, where an invitee asks for access,
     * and /blackcard, the invitee's page its access link opens. false: neither page is built, the
     * server answers both with 404 and the not-found page, and no page of the site leads to them.
     */
    invitation: z.boolean().default(true),
  })
  .strict()
  .default({ invitation: true });

const siteSchema = z
  .object({
    brand: z
      .object({
        name: text,
        siteUrl: z.url({ protocol: /^https?$/, error: 'must be the full address of the site, e.g. https://www.example.com' }),
        programName: text,
        methodName: text,
        founderName: text,
        /** Who e-mails come from: the name buyers see and an address on the seller's own domain (SPF, DKIM). */
        sender: z
          .object({
            name: text,
            address: address(/^[^\s@<>]+@[^\s@<>]+$/),
          })
          .strict(),
        /** The owner's address: disputes (chargebacks) are e-mailed there. Absent: they are recorded, not e-mailed. */
        ownerEmail: address(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/).optional(),
      })
      .strict(),
    /** The money-back guarantee as pages and e-mails name it (copy terms {guarantee}, {guarantee:title}…). */
    guarantee: z
      .object({
        /** In a sentence: 'the 12-month money-back guarantee applies'. */
        name: text,
        /** As a heading or badge. */
        title: text,
        /** Shorter, in a sentence: 'let the 12-month guarantee carry the risk'. */
        short: text,
        /** How long it runs, in a sentence: 'practise the method for a full 12 months'. */
        period: text,
      })
      .strict(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals, e.g. USD, EUR, JPY'),
    plans: z
      .array(plan)
      .min(1, 'must list at least one plan')
      .superRefine((plans, ctx) => {
        const seen = new Set<string>();
        plans.forEach((p, i) => {
          if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `'${p.id}' is used by an earlier plan` });
          seen.add(p.id);
        });
      }),
    offers,
    pages,
  })
  .strict()
  .superRefine((settings, ctx) => {
    const plans = new Map(settings.plans.map((p) => [p.id, p]));
    const refuse = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path: ['offers', ...path], message });
    const known = (id: string, path: Array<string | number>): boolean => {
      if (plans.has(id)) return true;
      refuse(path, `'${id}' is not a plan of site.json (plans: ${[...plans.keys()].join(', ')})`);
      return false;
    };
    const { default: fallback, upgrade, upgradeCta, levelTwo, firstInstalmentButton, bump } = settings.offers;
    known(fallback, ['default']);
    upgrade.forEach((id, i) => known(id, ['upgrade', i]));
    if (upgradeCta !== undefined && known(upgradeCta, ['upgradeCta']) && !upgrade.includes(upgradeCta)) {
      refuse(['upgradeCta'], `'${upgradeCta}' must be one of offers.upgrade`);
    }
    if (levelTwo !== undefined) known(levelTwo, ['levelTwo']);
    firstInstalmentButton.forEach((id, i) => {
      if (known(id, ['firstInstalmentButton', i]) && !plans.get(id)?.instalments) refuse(['firstInstalmentButton', i], `'${id}' is not paid in instalments`);
    });
    // The add-on is charged once, with the first payment of the plan it is added to.
    const added = bump !== undefined && known(bump, ['bump']) ? plans.get(bump) : undefined;
    if (added && (added.kind !== 'one-time' || added.instalments)) refuse(['bump'], `'${bump}' must be a one-time plan paid at once`);
  });

export type SiteSettings = z.infer<typeof siteSchema>;

export { SiteError };

/** Reads a parsed `site.json`, or throws a SiteError listing each problem as `file: field: what`. */
export function parseSiteSettings(value: unknown, file: string): SiteSettings {
  const result = siteSchema.safeParse(value);
  if (result.success) return result.data;
  throw issuesToSiteError(result.error.issues, file);
}

/** One SiteError for a file's schema issues, each line `file: field: what is wrong`. */
export function issuesToSiteError(issues: readonly z.core.$ZodIssue[], file: string): SiteError {
  const lines = issues.map((issue) => {
    const field = issue.path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), '');
    return `  ${file}: ${field || '(top level)'}: ${issue.message}`;
  });
  return new SiteError(`The site folder has ${lines.length} problem(s):\n${lines.join('\n')}`);
}
