import { TEST_MODE_RIBBON, withTestModeRibbon } from './test-mode-ribbon';

describe('withTestModeRibbon', () => {
  it('puts the ribbon right after the opening <body> tag, attributes and all, outside the React root', () => {
    const built = '<!doctype html><html><head><title>$& Clear</title></head><body class="page"><div id="root"><p>x</p></div></body></html>';
    expect(withTestModeRibbon(built)).toBe(
      `<!doctype html><html><head><title>$& Clear</title></head><body class="page">${TEST_MODE_RIBBON}<div id="root"><p>x</p></div></body></html>`,
    );
  });

  it('is a fixed landmark that lets taps through and says what it means', () => {
    expect(TEST_MODE_RIBBON).toMatch(/^<aside aria-label="Test mode" style="[^"]*position:fixed[^"]*pointer-events:none">Test mode: no real charges<\/aside>$/);
  });

  it('leaves a document without a body as it is', () => {
    expect(withTestModeRibbon('<p>fragment</p>')).toBe('<p>fragment</p>');
  });
});
