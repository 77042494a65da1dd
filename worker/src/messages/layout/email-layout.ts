import type { EmailCopy } from '../email-copy';
import { EMAIL_TEMPLATES } from './email-templates.generated';

/** Every character that could open markup or close an attribute, as a numeric reference. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SLOT = /\{\{(\w+)\}\}/g;

/**
 * A precompiled template with its slots filled in one pass (what is put in is never read again
 * for slots): text escaped, a slot named `…Html` taken as the layout's own markup.
 */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(SLOT, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`E-mail template slot "${name}" has no value`);
    return name.endsWith('Html') ? value : escapeHtml(value);
  });
}

export interface EmailDocument {
  /** The document's <title>. */
  title: string;
  /** The card's heading: the brand, or what the message is about. */
  heading: string;
  /** A marketing or access e-mail sits on the darker page colour, a notice on the lighter one. */
  page: 'page' | 'pageDark';
}

/** One button-like action: what it says and where it goes. */
export interface EmailAction {
  label: string;
  url: string;
}

/**
 * The e-mails' one layout, in the colours and font of the site's theme: the builders say what a
 * message holds and in what order; the markup is the components' (email-layout.components.ts).
 */
export class EmailLayout {
  constructor(private readonly copy: Pick<EmailCopy, 'colors' | 'common'>) {}

  document(doc: EmailDocument, blocks: string[]): string {
    const c = this.copy.colors;
    return fill(EMAIL_TEMPLATES.document, {
      title: doc.title,
      heading: doc.heading,
      background: c[doc.page],
      font: c.font,
      text: c.text,
      card: c.card,
      contentHtml: blocks.join('\n'),
    });
  }

  paragraph(text: string): string {
    return fill(EMAIL_TEMPLATES.paragraph, { text });
  }

  /** A table of label and value pairs; none, no table. */
  facts(rows: ReadonlyArray<readonly [string, string]>): string {
    if (!rows.length) return '';
    const muted = this.copy.colors.muted;
    return fill(EMAIL_TEMPLATES.facts, {
      rowsHtml: rows.map(([label, value]) => fill(EMAIL_TEMPLATES.fact, { muted, label, value })).join(''),
    });
  }

  /** The button; `dark` for marketing and access e-mails, the lighter one for notices. */
  action(action: EmailAction, tone: 'dark' | 'light'): string {
    const c = this.copy.colors;
    return fill(EMAIL_TEMPLATES.action, {
      ...action,
      button: tone === 'dark' ? c.buttonDark : c.button,
      buttonText: tone === 'dark' ? c.buttonDarkText : c.buttonText,
      muted: c.muted,
      fallback: this.copy.common.buttonFallback,
    });
  }

  labelledLink(link: EmailAction): string {
    return fill(EMAIL_TEMPLATES.labelledLink, { ...link });
  }

  unsubscribe(footer: string, link: EmailAction): string {
    const c = this.copy.colors;
    return fill(EMAIL_TEMPLATES.unsubscribe, { footer, ...link, muted: c.muted, line: c.line });
  }

  signature(): string {
    return this.paragraph(this.copy.common.signature);
  }
}
