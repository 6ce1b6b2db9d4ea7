import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvLine, ndjsonLine, type ExportRecord } from './links-export.rules.js';

const record: ExportRecord = {
  url: 'https://example.com/?a=1,2',
  code: 'abc',
  credit: 'Doe, "JD"',
  createdAt: '2024-01-02T03:04:05.000Z',
  tags: ['a', 'b'],
  expiresAt: null,
  maxVisits: 3,
  visits: 9,
  days: { '2024-01-02': 4, '2024-01-03': 5 },
};

describe('export lines', () => {
  it('quotes a CSV field only when RFC 4180 needs it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('writes the import format, with days as a last column only when asked', () => {
    expect(csvHeader(false)).toBe('url,code,credit,createdAt,tags,expiresAt,maxVisits,visits\r\n');
    expect(csvLine(record, false)).toBe(
      '"https://example.com/?a=1,2",abc,"Doe, ""JD""",2024-01-02T03:04:05.000Z,a|b,,3,9\r\n',
    );
    expect(csvHeader(true).endsWith(',visits,days\r\n')).toBe(true);
    expect(csvLine(record, true).endsWith(',3,9,2024-01-02:4|2024-01-03:5\r\n')).toBe(true);
    expect(JSON.parse(ndjsonLine(record))).toEqual(record);
  });
});
