import { safeUrl } from './safe-url';

describe('safeUrl', () => {
  it.each([
    ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/a.jpg'],
    ['http://example.com/v', 'http://example.com/v'],
    ['javascript:alert(1)', null],
    ['data:image/png;base64,AAAA', null],
    ['//evil.example.com/x', null],
    ['not a url', null],
    [null, null],
  ])('%p -> %p', (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });
});
