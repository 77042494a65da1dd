import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, loadTheme, siteDir } from '@contracts/site/site-folder';
import { SiteError, type SiteSettings } from '@contracts/site/site.schema';
import type { Theme } from '@contracts/site/theme.schema';

/**
 * The words of every e-mail, from the site folder's `emails/*.json` (site terms such as {brand}
 * and {program} filled in; the values of one message, such as {amount}, are filled by its
 * builder with `fill`), and their colours, from its theme.json. The HTML is the one layout of
 * layout/email-layout.ts.
 */
export interface EmailCopy {
  /** The e-mails' colours and font, from the site folder's theme.json (`email`). */
  colors: Theme['email'];
  common: { heading: string; greeting: string; greetingNamed: string; signature: string; buttonFallback: string };
  receipt: {
    subject: string;
    title: string;
    introFirst: string;
    introLater: string;
    labels: Record<'plan' | 'billing' | 'addOn' | 'payment' | 'amountPaid' | 'date' | 'orderReference', string>;
    paymentOf: string;
    paymentNumber: string;
    guarantee: string;
    account: string;
  };
  refund: {
    subject: string;
    refunded: string;
    accessEnded: string;
    accessUnchanged: string;
    labels: Record<'plan' | 'amountRefunded' | 'date' | 'orderReference', string>;
    action: string;
  };
  dispute: Record<'disputed' | 'won' | 'lost', { status: string; what: string }> & {
    subject: string;
    title: string;
    labels: Record<'amount' | 'orderReference' | 'dispute' | 'mode', string>;
    testOrder: string;
    orders: string;
    ordersLink: string;
  };
  membership: {
    paymentFailed: NoticeCopy<'plan' | 'amountDue'>;
    ended: NoticeCopy<'plan'>;
    canceled: NoticeCopy<'plan' | 'accessUntil'>;
    resuming: NoticeCopy<'plan' | 'resumesOn'>;
  };
  invitation: LinkCopy & { validity: string };
  abandonedCheckout: LinkCopy & { footer: string; unsubscribe: string };
  accountLink: LinkCopy & { validity: string };
}

interface NoticeCopy<Label extends string> {
  subject: string;
  paragraphs: string[];
  labels: Record<Label, string>;
  action: string;
}

interface LinkCopy {
  subject: string;
  title: string;
  intro: string;
  button: string;
}

const FILES: Readonly<Record<Exclude<keyof EmailCopy, 'colors'>, string>> = {
  common: 'emails/common.json',
  receipt: 'emails/receipt.json',
  refund: 'emails/refund.json',
  dispute: 'emails/dispute.json',
  membership: 'emails/membership.json',
  invitation: 'emails/invitation.json',
  abandonedCheckout: 'emails/abandoned-checkout.json',
  accountLink: 'emails/account-link.json',
};

/**
 * Reads and checks every e-mail copy file of a site folder and its theme's e-mail colours; one
 * SiteError names every bad file and field.
 */
export function loadEmailCopy(settings: SiteSettings, dir: string, defaultDir = defaultSiteDir(__dirname)): EmailCopy {
  const copy: Record<string, unknown> = {};
  const problems: string[] = [];
  const read = (key: string, load: () => unknown): void => {
    try {
      copy[key] = load();
    } catch (error) {
      if (!(error instanceof SiteError)) throw error;
      // A file's own error: its header line, then one indented line per problem.
      const lines = error.message.split('\n');
      problems.push(...(lines.length > 1 ? lines.slice(1) : [`  ${lines[0]}`]));
    }
  };
  for (const [key, file] of Object.entries(FILES)) read(key, () => loadCopy(dir, defaultDir, file, settings));
  read('colors', () => loadTheme(dir).email);
  if (problems.length) throw new SiteError(`The site folder has ${problems.length} problem(s):\n${problems.join('\n')}`);
  return copy as unknown as EmailCopy;
}

/** The site's e-mail copy, read once when the worker starts: a bad file stops it, named. */
export const emailCopy: EmailCopy = loadEmailCopy(site, siteDir(__dirname));
