import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../shared/attendance-rules';
import type { StudentRecord } from '../../../shared/schemas/students';
import { buildReportPdf, forecastSentence, textRuns, toPdfText } from './report-pdf';

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

const record = (overrides: Partial<StudentRecord> = {}): StudentRecord => ({
  pin: '23A51A0512',
  name: 'Meghana Iyer',
  profile: null,
  summary: summarize(0, 0),
  subjects: [],
  history: [],
  nextBefore: null,
  term: null,
  ...overrides,
});

describe('toPdfText', () => {
  it('keeps what the built-in fonts can draw and marks the rest with ?', () => {
    expect(toPdfText('José Müller – “Ñ” €')).toBe('José Müller – “Ñ” €');
    expect(toPdfText('రవి 李 😀')).toBe('??? ? ?');
    expect(toPdfText('line\nbreak\ttab')).toBe('line break tab');
    // A decomposed é is joined first, so it is drawn rather than marked.
    expect(toPdfText('Jose\u0301')).toBe('José');
  });
});

describe('forecastSentence', () => {
  it('says what the student can miss or must make up', () => {
    expect(forecastSentence(summarize(0, 0))).toBe('No attendance has been recorded yet.');
    expect(forecastSentence(summarize(2, 1))).toBe(
      'Attendance is below the required 75%. Attending the next 1 class in a row brings attendance back to 75%.',
    );
    expect(forecastSentence(summarize(3, 1))).toBe('Missing the next class would take attendance below 75%.');
    expect(forecastSentence(summarize(8, 0))).toBe('2 more classes can be missed while staying at or above 75%.');
  });
});

describe('buildReportPdf', () => {
  it('draws what users typed as literal text', async () => {
    const text = await textOf(
      await buildReportPdf(
        record({
          name: '<script>alert(1)</script>',
          profile: {
            id: '00000000-0000-4000-8000-000000000000',
            pin: '23A51A0512',
            name: '<script>alert(1)</script>',
            designation: '<b>CSE</b> & ECE',
            imageUrl: null,
          photoUrl: null,
            imageAlt: null,
            linkedin: null,
            github: null,
            leetcode: null,
            resume: 'https://example.com/cv?a=1&b=<2>',
            portfolio: null,
            email: null,
            phone: null,
            status: 'approved',
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-01T00:00:00.000Z',
          },
        }),
        { generatedOn: '2026-03-09' },
      ),
    );
    expect(text).toContain('Name: <script>alert(1)</script>');
    expect(text).toContain('Designation: <b>CSE</b> & ECE');
    expect(text).toContain('Resume: https://example.com/cv?a=1&b=<2>');
    expect(text).toContain('Generated on 2026-03-09');
  });

  it('says so when there is no history yet', async () => {
    const text = await textOf(await buildReportPdf(record(), { generatedOn: '2026-03-09' }));
    expect(text).toContain('Total Days: 0');
    expect(text).toContain('Percentage: 0.00%');
    expect(text).toContain('No attendance records yet.');
    expect(text).toContain('Page 1 of 1');
  });
});

describe('the university\'s name', () => {
  it('is printed under the portal\'s name when PORTAL_NAME sets one, and not otherwise', async () => {
    const branded = await textOf(await buildReportPdf(record(), { generatedOn: '2026-11-24', university: 'Riverside University' }));
    expect(branded).toMatch(/University Portal\s+Riverside University\s+Attendance Report/);
    expect(await textOf(await buildReportPdf(record(), { generatedOn: '2026-11-24' }))).not.toContain('Riverside');
  });
});

describe('names in Devanagari and Telugu', () => {
  it('cuts a text into runs of one script each, spaces and Latin letters in the built-in fonts', () => {
    expect(textRuns('राहुल मेहता (CSE)')).toEqual([
      { script: 'devanagari', text: 'राहुल' },
      { script: null, text: ' ' },
      { script: 'devanagari', text: 'मेहता' },
      { script: null, text: ' (CSE)' },
    ]);
    // A joiner belongs to the script around it.
    expect(textRuns('క్\u200dష ravi')).toEqual([
      { script: 'telugu', text: 'క్\u200dష' },
      { script: null, text: ' ravi' },
    ]);
  });

  // Extraction gives glyphs in the order they are drawn: these names and subjects have no sign
  // drawn before the letter it is typed after (see writeText), so they come back as typed.
  it.each([
    ['Devanagari', 'राहुल मेहता', 'डेटा संरचना'],
    ['Telugu', 'సాయి కుమార్', 'గణితం'],
  ])('draws a name and a subject written in %s as text, beside the English labels', async (_script, name, subjectName) => {
    const pdf = await buildReportPdf(
      record({
        name,
        subjects: [{ code: 'DS', name: subjectName, attended: 4, held: 5, percentage: 80, status: 'Good', canMiss: 0 }],
      }),
      { generatedOn: '2026-03-09' },
    );
    const text = (await textOf(pdf)).replace(/[ \t]+/g, ' ');
    expect(text).toContain(`Name: ${name}`);
    expect(text).toContain(`${subjectName} (DS): 4 of 5 attended`);
    expect(text).toContain('Attendance Report');
    expect(text).not.toContain('?');
  });
});
