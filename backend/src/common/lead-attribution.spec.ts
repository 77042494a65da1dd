import { attributionFromRequest } from './lead-attribution';

describe('attributionFromRequest', () => {
  it('keeps non-empty body fields, trimmed', () => {
    expect(attributionFromRequest({ utm_source: ' ads ', utm_medium: '  ', gclid: 'g1' }, undefined)).toEqual({
      utm_source: 'ads',
      gclid: 'g1',
    });
  });

  it('reads the affiliate, Meta and GA cookies', () => {
    const cookies = '_fprom_tid=abc; _fbp=fb.1.2.3; _fbc=fb.1.2.click; _ga=GA1.1.111.222; other=x';
    expect(attributionFromRequest(undefined, cookies)).toEqual({
      tid: 'abc',
      fbp: 'fb.1.2.3',
      fbc: 'fb.1.2.click',
      ga_client_id: '111.222',
    });
  });

  it('ignores a malformed _ga cookie and oversized values', () => {
    expect(attributionFromRequest(undefined, `_ga=garbage; _fbp=${'x'.repeat(600)}`)).toEqual({});
  });
});

describe('attributionFromRequest with unsafe cookies', () => {
  it('drops cookie values that decode to control characters, keeps the rest', () => {
    const cookies = '_fprom_tid=abc%00def; _fbp=fb.1%0A2; _fbc=x%C2%85y; _ga=GA1.1.111.222';
    expect(attributionFromRequest(undefined, cookies)).toEqual({ ga_client_id: '111.222' });
  });
});
