import { scrubJson, scrubText, type ScrubTerms } from './person-scrub';

const terms: ScrubTerms = {
  emails: ['jane.roe@example.com'],
  names: ['Jane Roe'],
  erasedEmail: 'erased+1@invalid',
  erasedName: '[erased]',
};

describe('scrubbing stored documents for an erase', () => {
  it('replaces the e-mail in any case anywhere, the name only in rows tied to the person', () => {
    expect(scrubText('to JANE.ROE@example.com today', terms, false)).toBe('to erased+1@invalid today');
    expect(scrubText('Receipt for Jane Roe', terms, false)).toBe('Receipt for Jane Roe');
    expect(scrubText('Receipt for jane roe', terms, true)).toBe('Receipt for [erased]');
  });

  it('walks nested objects and arrays, e-mails in keys too, leaving other values alone', () => {
    const event = {
      data: { object: { receipt_email: 'jane.roe@example.com', billing: [{ name: 'Jane Roe' }], amount: 9700, 'jane.roe@example.com': 1 } },
    };
    expect(scrubJson(event, terms, true)).toEqual({
      data: { object: { receipt_email: 'erased+1@invalid', billing: [{ name: '[erased]' }], amount: 9700, 'erased+1@invalid': 1 } },
    });
  });

  it('treats the e-mail as literal text, not a pattern', () => {
    const dotted: ScrubTerms = { ...terms, emails: ['a.b@x.io'] };
    expect(scrubText('aXb@x.io a.b@x.io', dotted, false)).toBe('aXb@x.io erased+1@invalid');
  });
});
