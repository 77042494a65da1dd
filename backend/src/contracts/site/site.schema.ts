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
    /** Whole units of the site's currency (97 is $97; 9700 is ¥9,700). */
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

export const siteSchema = z
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
  })
  .strict();

export type SiteSettings = z.infer<typeof siteSchema>;
export type SitePlan = SiteSettings['plans'][number];

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
