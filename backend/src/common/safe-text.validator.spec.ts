import { isSafeText } from './safe-text.validator';

describe('isSafeText', () => {
  it.each(['Jane', 'Ünïcödé 名前', '+1 555 0100', 'emoji 😀', ''])('accepts %p', (value) => {
    expect(isSafeText(value)).toBe(true);
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['a line break', 'a\nb'],
    ['a tab', 'a\tb'],
    ['ESC', '\u001b[31m'],
    ['DEL', 'a\u007f'],
    ['a C1 control', 'a\u0085'],
    ['a lone high surrogate', 'a\ud83d'],
    ['a lone low surrogate', '\ude00b'],
  ])('refuses %s', (_label, value) => {
    expect(isSafeText(value)).toBe(false);
  });
});
