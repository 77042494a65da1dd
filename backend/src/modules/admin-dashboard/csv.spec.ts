import { csvCell, toCsv } from './csv';

describe('CSV export cells', () => {
  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tlead', "'\tlead"],
    ['plain@example.com', 'plain@example.com'],
    ['Doe, Jane', '"Doe, Jane"'],
    ['line\nbreak', '"line\nbreak"'],
    ['say "hi"', '"say ""hi"""'],
  ])('%j is written as %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('writes empty cells for null, ISO times for dates, numbers as they are', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(new Date('2025-01-02T03:04:05.000Z'))).toBe('2025-01-02T03:04:05.000Z');
    expect(csvCell(997)).toBe('997');
  });

  it('joins a header and rows with CRLF line ends', () => {
    expect(toCsv(['a', 'b'], [[1, '=x']])).toBe("a,b\r\n1,'=x\r\n");
  });
});
