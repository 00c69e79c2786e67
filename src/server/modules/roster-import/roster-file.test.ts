import { describe, expect, it } from 'vitest';
import { CLASS_NAMES } from '../../../shared/constants';
import { parseRosterFile } from './roster-file';

describe('parseRosterFile', () => {
  const classes = [...CLASS_NAMES];

  it('reads a CSV in any column order, trims, and spells classes as the portal does', () => {
    const { students: rows, errors } = parseRosterFile('Name, PIN ,Class\n"  Asha   Rao ",P-1,cse2\n\nRavi,P2,CSE3\n', classes);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { pin: 'P-1', name: 'Asha Rao', className: 'CSE2' },
      { pin: 'P2', name: 'Ravi', className: 'CSE3' },
    ]);
  });

  it('reports every bad row by its line', () => {
    const csv = [
      'pin,name,class',
      'P1,Good,CSE1',
      ',No Pin,CSE1',
      'P 3,Space in pin,CSE1',
      'P4,,CSE1',
      'P5,Wrong class,CSE9',
      'P1,Again,CSE2',
      'P6,Too,many,fields',
      'P7,"bad"quote,CSE1',
    ].join('\n');
    const { errors } = parseRosterFile(csv, classes);
    expect(errors).toEqual([
      'line 3: PIN "": Please enter a PIN number',
      'line 4: PIN "P 3": A PIN holds only letters, digits, - and /',
      'line 5: name is missing',
      'line 6: class "CSE9" does not exist (the classes are CSE1, CSE2, CSE3, CSE4, CSE5, CSE6, CSE7, CSE8)',
      'line 7: PIN P1 is already at line 2',
      'line 8: expected 3 fields (pin,name,class), found 4',
      'line 9: text after a closing quote; write a quote inside a quoted field as ""',
    ]);
  });

  it('reads an optional email column: each student with one is to get an account', () => {
    const { students: rows, accounts, errors } = parseRosterFile(
      'pin,name,class,email\nP1,Asha,CSE1,Asha@Uni.edu\nP2,Ravi,CSE1,\n',
      classes,
    );
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(2);
    expect(accounts).toEqual([{ pin: 'P1', name: 'Asha', email: 'Asha@Uni.edu' }]);

    const bad = parseRosterFile('pin,name,class,email\nP1,Asha,CSE1,not-an-email\nP2,Ravi,CSE1,a@uni.edu\nP3,Bala,CSE1,A@uni.edu\n', classes);
    expect(bad.errors).toEqual([
      'line 2: email "not-an-email" is not a valid e-mail address',
      'line 4: email A@uni.edu is already at line 3',
    ]);
  });

  it('normalises PINs to trimmed upper case', () => {
    const { students: rows } = parseRosterFile('pin,name,class\n 23b81a0101 ,Asha,CSE1\n', classes);
    expect(rows).toEqual([{ pin: '23B81A0101', name: 'Asha', className: 'CSE1' }]);
  });

  it('needs the header line', () => {
    expect(parseRosterFile('P1,Asha,CSE1\n', classes).errors).toEqual([
      'line 1: the header must name the columns pin,name,class and may add email (found "P1,Asha,CSE1")',
    ]);
    expect(parseRosterFile('pin,name,class,phone\n', classes).errors[0]).toMatch(/^line 1: the header/);
    expect(parseRosterFile('  \n', classes).errors[0]).toMatch(/^The file is empty/);
    expect(parseRosterFile('pin,name,class\n', classes).errors).toEqual(['The file lists no students']);
  });

  it('reads the student.json shape and reports bad entries by class and position', () => {
    const good = JSON.stringify({ CSE1: [{ pin: 'A1', name: 'Asha' }], CSE2: [{ pin: 'B1', name: 'Bala' }, { pin: 'B2', name: 'Chitra' }] });
    expect(parseRosterFile(good, classes)).toEqual({
      students: [
        { pin: 'A1', name: 'Asha', className: 'CSE1' },
        { pin: 'B1', name: 'Bala', className: 'CSE2' },
        { pin: 'B2', name: 'Chitra', className: 'CSE2' },
      ],
      accounts: [],
      errors: [],
      problems: [],
    });
    const bad = JSON.stringify({
      CSE1: [{ pin: 501, name: 'Number pin' }, { pin: 'A2' }, 'text', { pin: 'A3', name: 'X', email: 'x@y.z' }],
      CSE2: { pin: 'B1' },
      CSE9: [{ pin: 'Z1', name: 'Nowhere' }],
    });
    expect(parseRosterFile(bad, classes).errors).toEqual([
      'CSE1 entry 1: pin must be text (in quotes), so that leading zeros are kept',
      'CSE1 entry 2: name is missing',
      'CSE1 entry 3: must be an object with pin and name',
      'CSE1 entry 4: unexpected field "email" (only pin and name)',
      'CSE2: must be a list of students, each { "pin": "...", "name": "..." }',
      'CSE9 entry 1: class "CSE9" does not exist (the classes are CSE1, CSE2, CSE3, CSE4, CSE5, CSE6, CSE7, CSE8)',
    ]);
    expect(parseRosterFile('{"CSE1": [', classes).errors[0]).toMatch(/^The file is not valid JSON/);
    expect(parseRosterFile('[{"pin":"A1"}]', classes).errors[0]).toMatch(/^The JSON must be an object keyed by class name/);
  });
});
