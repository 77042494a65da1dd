import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTheme } from './site-folder';
import { themeCss } from './theme.schema';

const defaultSite = join(__dirname, '../../../../site');

describe("a site folder's theme.json", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'theme-'));
    cpSync(join(defaultSite, 'theme.json'), join(dir, 'theme.json'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (change: (theme: Record<string, any>) => void): void => {
    const theme = JSON.parse(readFileSync(join(dir, 'theme.json'), 'utf8')) as Record<string, any>;
    change(theme);
    writeFileSync(join(dir, 'theme.json'), JSON.stringify(theme));
  };

  it('becomes CSS custom properties: every colour token and the fonts, on :root', () => {
    edit((t) => {
      t.colors.cta = '#e11d48';
      t.colors['night-veil'] = 'rgb(0 0 0 / 40%)';
      t.fonts.body = "'Inter', sans-serif";
    });
    const css = themeCss(loadTheme(dir));
    expect(css.startsWith(':root{--ink:#0f172a;')).toBe(true);
    expect(css).toContain(';--cta:#e11d48;');
    expect(css).toContain(';--night-veil:rgb(0 0 0 / 40%);');
    expect(css).toContain(";--font-body:'Inter', sans-serif;--font-mono:ui-monospace, monospace}");
  });

  it('names the file and each bad field: a colour that is not one, a missing or unknown token, a font that could break out', () => {
    edit((t) => {
      t.colors.ink = 'navy';
      delete t.colors.cta;
      t.colors.brand = '#ffffff';
      t.email.page = 'rgb(1 2 3)';
      t.fonts.body = 'Arial; } body { display: none';
    });
    const file = join(dir, 'theme.json');
    expect(() => loadTheme(dir)).toThrow(
      [
        'The site folder has 5 problem(s):',
        `  ${file}: fonts.body: must be a font list such as 'Inter', Arial, sans-serif (no ; { } < > " or \\)`,
        `  ${file}: colors.ink: must be a colour like #0b1324 or rgb(11 19 36 / 0.6)`,
        `  ${file}: colors.cta: is missing`,
        `  ${file}: colors: Unrecognized key: "brand"`,
        `  ${file}: email.page: must be a colour like #0b1324 (e-mail clients read hex only)`,
      ].join('\n'),
    );
  });
});
