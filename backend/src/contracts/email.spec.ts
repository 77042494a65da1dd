import { normalizeEmail } from './email';

describe('normalizeEmail', () => {
  it('trims and lowers ASCII', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('lowers non-ASCII letters too', () => {
    expect(normalizeEmail('Äbc@Exämple.com')).toBe('äbc@exämple.com');
    expect(normalizeEmail('ÄBC@example.com')).toBe(normalizeEmail('äbc@example.com'));
  });

  it('treats a composed and a decomposed letter as one address', () => {
    expect(normalizeEmail('A\u0308bc@example.com')).toBe(normalizeEmail('\u00c4bc@example.com'));
  });
});
