import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedEncoding, compressedDocument, TEST_MODE_RIBBON, withTestModeRibbon } from './test-mode-ribbon';

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

describe('compressedDocument', () => {
  it('holds the ribboned document as it is, in brotli and in gzip', () => {
    const document = compressedDocument(withTestModeRibbon('<body>landing</body>'));
    const ribboned = `<body>${TEST_MODE_RIBBON}landing</body>`;
    expect(document.identity.toString()).toBe(ribboned);
    expect(brotliDecompressSync(document.br).toString()).toBe(ribboned);
    expect(gunzipSync(document.gzip).toString()).toBe(ribboned);
  });
});

describe('acceptedEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['GZIP;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['identity', null],
    [undefined, null],
  ])('%p takes %p', (header, encoding) => {
    expect(acceptedEncoding(header)).toBe(encoding);
  });
});
