import { Button, Container, Head, Heading, Html } from '@react-email/components';
import { createElement as e, Fragment, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * The e-mails' one layout, written with React Email components, rendered at BUILD time
 * (`npm run email:compile`) into email-templates.generated.ts. Rendering React per e-mail costs the
 * worker about 1.2 ms of CPU (tests/bench/email-render.bench.ts measures it), over the 0.5 ms budget,
 * so the worker only fills the precompiled templates (email-layout.ts) and never imports React.
 *
 * Every `{{slot}}` is filled at send time: with escaped text, or, for a slot named `…Html`, with
 * markup the layout itself produced. A child is always ONE string, so React puts no `<!-- -->`
 * between text parts.
 */
const slot = (name: string): string => `{{${name}}}`;

/** The whole message: the card on a coloured page, the brand (or the message's title) as heading. */
function Document(): ReactElement {
  return e(
    Html,
    { lang: 'en' },
    e(Head, null, e('title', null, slot('title'))),
    e(
      'body',
      { style: { margin: '0', padding: '24px', background: slot('background'), fontFamily: slot('font'), color: slot('text') } },
      e(
        Container,
        { style: { maxWidth: '560px', margin: '0 auto', background: slot('card'), borderRadius: '8px', padding: '24px' } },
        e(Heading, { as: 'h1', style: { fontSize: '20px', margin: '0 0 16px' } }, slot('heading')),
        slot('contentHtml'),
      ),
    ),
  );
}

const Paragraph = (): ReactElement => e('p', null, slot('text'));

/** Label and value pairs: what was paid, for which plan, when. */
const Facts = (): ReactElement =>
  e(
    'table',
    { role: 'presentation', style: { width: '100%', borderCollapse: 'collapse', margin: '16px 0' } },
    e('tbody', null, slot('rowsHtml')),
  );

const Fact = (): ReactElement =>
  e(
    'tr',
    null,
    e('th', { align: 'left', style: { padding: '6px 8px 6px 0', fontWeight: 'normal', color: slot('muted') } }, slot('label')),
    e('td', { style: { padding: '6px 0' } }, slot('value')),
  );

/** The one thing to do, as a button, with the address under it for clients that lose the button. */
const Action = (): ReactElement =>
  e(
    Fragment,
    null,
    e(
      'p',
      { style: { margin: '24px 0' } },
      e(
        Button,
        {
          href: slot('url'),
          style: {
            padding: '12px 20px',
            background: slot('button'),
            color: slot('buttonText'),
            borderRadius: '6px',
            textDecoration: 'none',
            fontWeight: 'bold',
          },
        },
        slot('label'),
      ),
    ),
    e('p', { style: { fontSize: '13px', color: slot('muted') } }, slot('fallback'), e('br'), slot('url')),
  );

/** A plain link after its label: 'Your account: https://…'. */
const LabelledLink = (): ReactElement => e('p', null, `${slot('label')}: `, e('a', { href: slot('url') }, slot('url')));

/** A marketing e-mail's footer: why it came, and the visible one-click unsubscribe link. */
const Unsubscribe = (): ReactElement =>
  e(
    'p',
    { style: { fontSize: '12px', color: slot('muted'), borderTop: `1px solid ${slot('line')}`, paddingTop: '12px' } },
    `${slot('footer')} `,
    e('a', { href: slot('url'), style: { color: slot('muted') } }, slot('label')),
  );

export const EMAIL_COMPONENTS = {
  document: Document,
  paragraph: Paragraph,
  facts: Facts,
  fact: Fact,
  action: Action,
  labelledLink: LabelledLink,
  unsubscribe: Unsubscribe,
} as const;

type EmailTemplateName = keyof typeof EMAIL_COMPONENTS;

/** The doctype React Email's `render` puts first: the one e-mail clients handle best. */
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * Each component as HTML with its `{{slots}}` left open: what email-templates.generated.ts holds.
 * Static markup (React's own, not React Email's asynchronous `render`, which loads React with a
 * dynamic import that the unit specs' module loader cannot follow), so that the spec that keeps
 * the generated file current renders exactly what `npm run email:compile` writes.
 */
function renderEmailTemplates(): Record<EmailTemplateName, string> {
  const templates = Object.fromEntries(
    Object.entries(EMAIL_COMPONENTS).map(([name, component]) => [name, renderToStaticMarkup(e(component))]),
  );
  return { ...templates, document: `${DOCTYPE}${templates.document}` } as Record<EmailTemplateName, string>;
}

/** Where `npm run email:compile` writes the templates, relative to the repository. */
export const EMAIL_TEMPLATES_FILE = 'worker/src/messages/layout/email-templates.generated.ts';

/** The source of email-templates.generated.ts (left out of Prettier: its lines are as long as the templates). */
export function emailTemplatesSource(): string {
  const templates = renderEmailTemplates();
  const entries = Object.entries(templates).map(([name, html]) => `  ${name}: ${JSON.stringify(html)},`);
  return `// Generated by \`npm run email:compile\` from email-layout.components.ts: edit that file, then run it.
export const EMAIL_TEMPLATES = {
${entries.join('\n')}
} as const;
`;
}
