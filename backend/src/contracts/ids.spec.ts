import { isUuid } from './ids';

describe('isUuid', () => {
  it('accepts a UUID in either case', () => {
    expect(isUuid('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(isUuid('0F8FAD5B-D9CB-469F-A165-70867728950E')).toBe(true);
  });

  it('refuses anything else, a UUID with more around it included', () => {
    for (const value of [
      '',
      'pi_123',
      '0f8fad5b-d9cb-469f-a165-70867728950',
      ' 0f8fad5b-d9cb-469f-a165-70867728950e',
      '0f8fad5bd9cb469fa16570867728950e',
      42,
      null,
      undefined,
    ])
      expect(isUuid(value)).toBe(false);
  });
});
