import { z } from 'zod';
import { issuesToSiteError } from './site.schema';

/**
 * The shape of a site folder's `theme.json`: the colour and font tokens of the pages (emitted as
 * CSS custom properties, `--<name>`, into the stylesheet at build: frontend/vite/site.plugin.ts)
 * and of the e-mails (worker/src/messages). Every token must be given, so a theme is never half
 * the default's; the names are the stylesheets' own.
 */
const COLOR_TOKENS = [
  'ink',
  'ink-soft',
  'surface',
  'surface-alt',
  'surface-glass',
  'night',
  'night-raised',
  'night-glow',
  'night-deep',
  'night-muted',
  'night-overlay',
  'night-veil',
  'hero-veil-top',
  'hero-veil-bottom',
  'on-night',
  'on-night-soft',
  'on-night-muted',
  'on-night-line',
  'on-night-line-soft',
  'on-dark',
  'accent',
  'accent-surface',
  'accent-line',
  'accent-glow',
  'accent-glow-soft',
  'cta',
  'cta-hover',
  'cta-ink',
  'cta-border',
  'cta-surface',
  'cta-line',
  'cta-line-soft',
  'cta-glow',
  'star',
  'line',
  'line-soft',
  'line-strong',
  'line-bold',
  'divider',
  'frame-line',
  'frame-line-soft',
  'shadow-soft',
  'shadow-raised',
  'shadow-strong',
  'backdrop',
  'backdrop-admin',
  'video-backdrop',
  'video-shadow',
  'danger',
  'danger-strong',
  'on-danger-soft',
  'danger-on-night',
  'danger-on-night-line',
  'error',
  'success',
  'success-surface',
  'success-on-night',
  'success-on-night-line',
  'warning',
  'warning-surface',
  'warning-surface-strong',
  'warning-ink',
  'warning-ink-strong',
  'notice-ink',
  'focus',
  'focus-on-night',
] as const;

const EMAIL_COLORS = [
  'page',
  'pageDark',
  'card',
  'text',
  'muted',
  'line',
  'button',
  'buttonText',
  'buttonDark',
  'buttonDarkText',
] as const;

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const RGB = /^rgb\(\d{1,3} \d{1,3} \d{1,3}(?: \/ (?:0|1|0?\.\d+|\d{1,3}%))?\)$/;
/** Text that must be there: a token left out is named as missing. */
const given = () => z.string({ error: (issue) => (issue.input === undefined ? 'is missing' : 'must be text') });
/** A page colour: hex, or rgb() in the space-separated form with an optional alpha. */
const color = given().refine((v) => HEX.test(v) || RGB.test(v), 'must be a colour like #0b1324 or rgb(11 19 36 / 0.6)');
/** An e-mail colour: hex only, the one form every mail client reads. */
const hex = given().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a colour like #0b1324 (e-mail clients read hex only)');
/** A font-family list: nothing that could end the declaration or the style attribute it sits in. */
const fonts = given()
  .trim()
  .min(1, 'must not be empty')
  .regex(/^[^;{}<>"\\]+$/, "must be a font list such as 'Inter', Arial, sans-serif (no ; { } < > \" or \\)");

const tokens = <const Names extends readonly string[], T extends z.ZodType>(names: Names, value: T) =>
  z.object(Object.fromEntries(names.map((name) => [name, value])) as { [K in Names[number]]: T }).strict();

const themeSchema = z
  .object({
    /** The browser's UI colour on phones (`<meta name="theme-color">`). */
    themeColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #0b1324'),
    fonts: z.object({ body: fonts, mono: fonts }).strict(),
    colors: tokens(COLOR_TOKENS, color),
    email: tokens(EMAIL_COLORS, hex).extend({ font: fonts }).strict(),
  })
  .strict();

export type Theme = z.infer<typeof themeSchema>;

/** Reads a parsed `theme.json`, or throws a SiteError listing each problem as `file: field: what`. */
export function parseTheme(value: unknown, file: string): Theme {
  const result = themeSchema.safeParse(value);
  if (result.success) return result.data;
  throw issuesToSiteError(result.error.issues, file);
}

/** The tokens as CSS custom properties on :root, `--ink: #0f172a;`, fonts as `--font-body`. */
export function themeCss(theme: Theme): string {
  const declarations = [
    ...Object.entries(theme.colors).map(([name, value]) => `--${name}:${value}`),
    ...Object.entries(theme.fonts).map(([name, value]) => `--font-${name}:${value}`),
  ];
  return `:root{${declarations.join(';')}}\n`;
}
