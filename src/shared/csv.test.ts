import { describe, expect, it } from 'vitest';
import { csvField, guardFormula, parseCsv, toCsv, unguardFormula } from './csv';

describe('writing CSV', () => {
  it('quotes commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
    expect(csvField('Rao, Kavitha')).toBe('"Rao, Kavitha"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField(42)).toBe('42');
    expect(csvField(-3)).toBe('-3');
  });

  it('writes a header row and CRLF line ends, or the line end asked for', () => {
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('a,b\r\n1,x\r\n');
    expect(toCsv(['a', 'b'], [[1, 'x']], '\n')).toBe('a,b\n1,x\n');
  });

  it('undoes only its own guard', () => {
    for (const text of ['=1+1', '+91 Rao', '-Dev', '@Asha', "'Quoted", "O'Neil", 'plain']) {
      expect(unguardFormula(guardFormula(text))).toBe(text);
    }
    expect(unguardFormula("'Quoted")).toBe("'Quoted");
  });
});

describe('reading CSV', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and keeps line numbers', () => {
    const records = parseCsv('\uFEFFpin,name,class\r\n1,"Rao, Kavitha",CSE1\n2,"Say ""hi""",CSE2\n3,"Two\nLines",CSE3\n4,Last,CSE4');
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ['pin', 'name', 'class']],
      [2, ['1', 'Rao, Kavitha', 'CSE1']],
      [3, ['2', 'Say "hi"', 'CSE2']],
      [4, ['3', 'Two\nLines', 'CSE3']],
      [6, ['4', 'Last', 'CSE4']],
    ]);
  });
  it('flags malformed quoting on the line where it happens', () => {
    expect(parseCsv('a,b"c,d\n')[0]?.error).toMatch(/quote inside an unquoted field/);
    expect(parseCsv('a,"b"c,d\n')[0]?.error).toMatch(/text after a closing quote/);
    const open = parseCsv('x,y\na,"never closed\nb,c\n');
    expect(open.at(-1)).toMatchObject({ line: 2, error: 'the quote opened on line 2 is never closed' });
  });
  it('reads what it writes', () => {
    const [header, ...rows] = [['pin', 'name', 'class'], ['P1', 'Rao, "K"', 'CSE1'], ['P2', ' padded ', 'CSE2'], ['P3', 'Two\nLines', 'CSE3']];
    expect(parseCsv(toCsv(header!, rows, '\n')).map((r) => r.fields)).toEqual([header, ...rows]);
    expect(toCsv(['name'], [[' padded ']], '\n')).toBe('name\n" padded "\n');
  });
});
