import { describe, expect, it } from 'vitest';
import { ExportFileError, readExportFile } from './export-file';

describe('readExportFile', () => {
  it('unwraps typed values, whatever form the timestamp takes, and leaves subcollections out', () => {
    const file = readExportFile(
      '\uFEFF' +
        JSON.stringify({
          __collections__: {
            attendance: {
              a: {
                timestamp: { __datatype__: 'timestamp', value: '2024-01-08T09:30:00Z' },
                ref: { __datatype__: 'documentReference', value: 'classes/CSE1' },
                __collections__: { notes: { n1: { text: 'left out' } } },
              },
              b: { timestamp: { __datatype__: 'timestamp', value: { seconds: 1704706200, nanoseconds: 5e8 } } },
            },
          },
        }),
    );
    expect(file.shape).toBe('firestore-export');
    expect(file.documents).toEqual([
      { collection: 'attendance', id: 'a', data: { timestamp: new Date('2024-01-08T09:30:00Z'), ref: 'classes/CSE1' } },
      { collection: 'attendance', id: 'b', data: { timestamp: new Date(1704706200500) } },
    ]);
  });

  it('reads NDJSON, skipping blank lines and documents of subcollections, and names a bad line', () => {
    const lines = [
      JSON.stringify({ path: 'cards/k1', data: { Pinnumber: 'P1' } }),
      '',
      JSON.stringify({ path: 'attendance/a1/notes/n1', data: { text: 'left out' } }),
      JSON.stringify({ path: 'registrations/r1', data: { createdAt: { _seconds: 1, _nanoseconds: 0 } } }),
    ];
    expect(readExportFile(lines.join('\r\n'))).toEqual({
      shape: 'ndjson',
      documents: [
        { collection: 'cards', id: 'k1', data: { Pinnumber: 'P1' } },
        { collection: 'registrations', id: 'r1', data: { createdAt: new Date(1000) } },
      ],
    });
    expect(() => readExportFile([lines[0], '{"path": "cards/k2"', lines[3]].join('\n'))).toThrow('Line 2 of the file is not JSON');
    expect(() => readExportFile([lines[0], '{"name": "x"}'].join('\n'))).toThrow('Line 2 is not a document');
  });

  it('refuses anything else with the shapes it reads', () => {
    for (const text of ['{"attendance": [1, 2]}', '{"CSE1": {"a": {}}}', 'null', '   ']) {
      expect(() => readExportFile(text), text).toThrow(ExportFileError);
    }
  });
});
