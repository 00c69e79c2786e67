import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { attendanceForecast, formatPercent, type MarkStatus } from '../../../shared/attendance-rules';
import { ATTENDANCE_THRESHOLD, PORTAL_NAME } from '../../../shared/constants';
import { PROFILE_LINK_FIELDS, type ProfileLinkField } from '../../../shared/schemas/profiles';
import type { StudentRecord } from '../../../shared/schemas/students';

export interface ReportOptions {
  /** The day the report is made, YYYY-MM-DD in the portal's time zone. */
  generatedOn: string;
  /** The university's name (PORTAL_NAME), printed under the portal's. */
  university?: string | undefined;
}

const MARGIN = 50;
const FOOTER_HEIGHT = 20;
const ROW_HEIGHT = 18;
const TEXT_COLOR = '#1a1b1e';
const MUTED_COLOR = '#5c5f66';
const RULE_COLOR = '#ced4da';
const STRIPE_COLOR = '#f1f3f5';
const PRESENT_COLOR = '#2b8a3e';
const ABSENT_COLOR = '#c92a2a';
const LATE_COLOR = '#9a4a00';

/** The links a profile may have, in the order of the registration form (the image is not a link to show). */
const SHOWN_LINKS: readonly Exclude<ProfileLinkField, 'imageUrl'>[] = ['linkedin', 'github', 'leetcode', 'resume', 'portfolio'];

/** Characters of Windows-1252 above 0x7F that are not in Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * The built-in PDF fonts only know Windows-1252; anything else would come out as garbage, so it
 * is shown as '?' instead (Devanagari and Telugu are drawn in fonts of their own: see textRuns).
 * Line breaks and control characters become spaces.
 */
export function toPdfText(value: string): string {
  let out = '';
  for (const char of value.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else if (code < 0x7f || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)) out += char;
    else out += '?';
  }
  return out;
}

/** What the summary and history cover: 'Autumn 2026 (2026-07-01 to 2026-11-30)', or 'All time'. */
export function termText(term: StudentRecord['term']): string {
  return term ? `${term.name} (${term.startsOn} to ${term.endsOn})` : 'All time';
}

/** The screen's forecast, after the low-attendance warning that the screen shows beside it. */
export function forecastSentence(summary: StudentRecord['summary']): string {
  const forecast = attendanceForecast(summary);
  if (forecast === null) return 'No attendance has been recorded yet.';
  return summary.status === 'Low' ? `Attendance is below the required ${ATTENDANCE_THRESHOLD}%. ${forecast}` : forecast;
}

/**
 * Scripts that names are written in at the portal's universities beyond the built-in fonts'
 * Latin-1: Devanagari (Hindi, Marathi…) and Telugu, each drawn in Noto Sans of that script (its
 * package's font file of the script's letters alone: `<file>-<weight>-normal.woff`).
 */
const SCRIPTS = {
  devanagari: { font: '@fontsource/noto-sans-devanagari', file: 'noto-sans-devanagari-devanagari', ranges: [[0x0900, 0x097f], [0x1cd0, 0x1cff], [0xa8e0, 0xa8ff]] },
  telugu: { font: '@fontsource/noto-sans-telugu', file: 'noto-sans-telugu-telugu', ranges: [[0x0c00, 0x0c7f]] },
} as const;
type Script = keyof typeof SCRIPTS;

/** Zero-width joiner and non-joiner: they belong to the script around them. */
const JOINERS = new Set(['\u200c', '\u200d']);

function scriptOf(char: string): Script | null {
  const code = char.codePointAt(0) ?? 0;
  for (const [script, { ranges }] of Object.entries(SCRIPTS) as [Script, (typeof SCRIPTS)[Script]][]) {
    if (ranges.some(([from, to]) => code >= from && code <= to)) return script;
  }
  return null;
}

/**
 * A text cut into runs of one script each: Devanagari, Telugu, or the rest (null), which the
 * built-in fonts draw (spaces and punctuation too: the scripts' fonts as packaged have only their
 * own letters).
 */
export function textRuns(value: string): { script: Script | null; text: string }[] {
  const runs: { script: Script | null; text: string }[] = [];
  for (const char of value.normalize('NFC')) {
    const last = runs.at(-1);
    const script = JOINERS.has(char) && last ? last.script : scriptOf(char);
    if (last && last.script === script) last.text += char;
    else runs.push({ script, text: char });
  }
  return runs;
}

/** Helvetica's (and Helvetica-Bold's) ascender, in thousandths of the font's size (its AFM). */
const HELVETICA_ASCENDER = 718;
/** The space between lines of a text with Devanagari or Telugu in it, in parts of the font's size. */
const SCRIPT_LINE_GAP = 0.3;

const fontFiles = new Map<string, Buffer | null>();

/** The script's Noto Sans (regular or bold) as packaged in node_modules, read once; null when it is not installed. */
function scriptFont(script: Script, bold: boolean): Buffer | null {
  const key = `${script}/${bold ? 700 : 400}`;
  if (!fontFiles.has(key)) {
    const { font, file } = SCRIPTS[script];
    let data: Buffer | null;
    try {
      data = readFileSync(createRequire(import.meta.url).resolve(`${font}/files/${file}-${bold ? 700 : 400}-normal.woff`));
    } catch {
      data = null;
    }
    fontFiles.set(key, data);
  }
  return fontFiles.get(key)!;
}

/** The name a document knows a script's font by (registerScriptFonts). */
const fontName = (script: Script, bold: boolean) => `${script}-${bold ? 700 : 400}`;

/** Gives the document the scripts' fonts that are installed, by name: each is then read once, when first used. */
function registerScriptFonts(doc: PDFKit.PDFDocument): void {
  for (const script of Object.keys(SCRIPTS) as Script[]) {
    for (const bold of [false, true]) {
      const font = scriptFont(script, bold);
      if (font) doc.registerFont(fontName(script, bold), font);
    }
  }
}

/**
 * Writes a text at the current position (or `at`, wrapping at its width) in the built-in font,
 * bold or not, its Devanagari and Telugu runs in their scripts' fonts on the same baseline;
 * `continued` as pdfkit's. Text extraction gives each run's glyphs in the order they are drawn:
 * a sign drawn before the letter it follows when typed (Devanagari's ि, a reph, a Telugu vowel
 * sign over a conjunct) comes out before it when the PDF's text is copied.
 */
function writeText(
  doc: PDFKit.PDFDocument,
  value: string,
  options: { size: number; bold: boolean; continued?: boolean; at?: { x: number; y: number; width: number } },
): void {
  doc.fontSize(options.size);
  const runs = textRuns(value);
  if (runs.length === 0) runs.push({ script: null, text: '' });
  const fonts = runs.map((run) => (run.script && scriptFont(run.script, options.bold) ? fontName(run.script, options.bold) : null));
  // The scripts' marks reach further below the line than Latin letters do: their lines are further apart.
  const lineGap = fonts.some(Boolean) ? SCRIPT_LINE_GAP * options.size : 0;
  runs.forEach((run, index) => {
    const continued = index < runs.length - 1 || options.continued === true;
    const font = fonts[index];
    const place = index === 0 && options.at ? options.at : undefined;
    const textOptions = {
      continued,
      lineGap,
      // On the built-in font's baseline, not the taller font's own.
      ...(font ? { baseline: -(HELVETICA_ASCENDER / 1000) * options.size } : {}),
      ...(place ? { width: place.width } : {}),
    };
    const write = (text: string) => (place ? doc.text(text, place.x, place.y, textOptions) : doc.text(text, textOptions));
    if (font) {
      doc.font(font);
      write(run.text);
    } else {
      doc.font(options.bold ? 'Helvetica-Bold' : 'Helvetica');
      write(toPdfText(run.text));
    }
  });
}

/**
 * The attendance report as a PDF: portal name, profile, summary (2 decimals) and the full history
 * over as many pages as it needs, the table header repeated on each. Everything a user typed is
 * drawn as plain text: links are not made clickable.
 */
export async function buildReportPdf(record: StudentRecord, options: ReportOptions): Promise<Buffer> {
  // Loaded with the first report, not at start: PDFKit and its fonts are a tenth of a second.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: toPdfText(`Attendance Report - ${record.pin}`),
      Author: PORTAL_NAME,
      Creator: PORTAL_NAME,
    },
  });
  registerScriptFonts(doc);
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;

  // Heading
  doc.fillColor(TEXT_COLOR).font('Helvetica-Bold').fontSize(20).text(PORTAL_NAME, left, MARGIN, { width });
  if (options.university) {
    writeText(doc, options.university, { size: 12, bold: false });
    doc.font('Helvetica-Bold');
  }
  doc.fontSize(15).text('Attendance Report', { width });
  doc.font('Helvetica').fontSize(10).fillColor(MUTED_COLOR).text(`Generated on ${options.generatedOn}`, { width });
  rule(doc, left, width);

  // Profile
  sectionHeading(doc, 'Student Profile', left, width);
  const profile = record.profile;
  field(doc, 'Name', record.name, left, width);
  field(doc, 'Designation', profile?.designation ?? 'Student', left, width);
  field(doc, 'PIN', record.pin, left, width);
  if (profile) {
    for (const key of SHOWN_LINKS) {
      const url = profile[key];
      if (url) field(doc, PROFILE_LINK_FIELDS[key].replace(/ (URL|Link)$/, ''), url, left, width);
    }
    if (profile.email) field(doc, 'Email', profile.email, left, width);
    if (profile.phone) field(doc, 'Phone', profile.phone, left, width);
  }

  // Summary
  const { summary } = record;
  sectionHeading(doc, 'Attendance Summary', left, width);
  field(doc, 'Term', termText(record.term), left, width);
  field(doc, 'Total Days', String(summary.totalDays), left, width);
  field(doc, 'Present', String(summary.presentDays), left, width);
  field(doc, 'Absent', String(summary.absentDays), left, width);
  field(doc, 'Percentage', formatPercent(summary.percentage, 2), left, width);
  field(doc, 'Status', summary.status, left, width);
  doc
    .moveDown(0.3)
    .font('Helvetica')
    .fontSize(10)
    .fillColor(summary.status === 'Low' ? ABSENT_COLOR : MUTED_COLOR)
    .text(forecastSentence(summary), left, doc.y, { width });

  // Per subject, when the student had lectures (decision 13).
  if (record.subjects.length > 0) {
    sectionHeading(doc, 'Attendance by Subject', left, width);
    for (const subject of record.subjects) {
      field(
        doc,
        `${subject.name} (${subject.code})`,
        `${subject.attended} of ${subject.held} attended, ${formatPercent(subject.percentage, 2)}, ${subject.status}; ` +
          `can still miss ${subject.canMiss}`,
        left,
        width,
      );
    }
  }

  // History
  sectionHeading(doc, 'Attendance History', left, width);
  drawHistory(doc, record.history, left, width);

  drawFooters(doc, record.pin);
  doc.end();
  return finished;
}

function rule(doc: PDFKit.PDFDocument, left: number, width: number): void {
  doc.moveDown(0.5);
  doc.strokeColor(RULE_COLOR).lineWidth(1).moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.moveDown(0.5);
}

function sectionHeading(doc: PDFKit.PDFDocument, title: string, left: number, width: number): void {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor(TEXT_COLOR).text(title, left, doc.y, { width });
  doc.moveDown(0.3);
}

/** A label and its value on one line (wrapping under it): what users typed, in any of the scripts. */
function field(doc: PDFKit.PDFDocument, label: string, value: string, left: number, width: number): void {
  doc.fillColor(TEXT_COLOR);
  writeText(doc, `${label}: `, { size: 10.5, bold: true, continued: true, at: { x: left, y: doc.y, width } });
  writeText(doc, value, { size: 10.5, bold: false });
}

const STATUS_WORDS: Record<MarkStatus, string> = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' };
const STATUS_COLORS: Record<MarkStatus, string> = {
  present: PRESENT_COLOR,
  absent: ABSENT_COLOR,
  late: LATE_COLOR,
  excused: MUTED_COLOR,
};

/** The class, and for a lecture its period and subject code: 'CSE3 - P2 DS'. */
function lectureText(entry: StudentRecord['history'][number]): string {
  if (entry.period === 0) return entry.class;
  return `${entry.class} - P${entry.period}${entry.subject ? ` ${entry.subject.code}` : ''}`;
}

const COLUMNS = [
  { title: 'Date', share: 0.35 },
  { title: 'Class', share: 0.35 },
  { title: 'Status', share: 0.3 },
] as const;

function drawHistory(doc: PDFKit.PDFDocument, history: StudentRecord['history'], left: number, width: number): void {
  if (history.length === 0) {
    doc.font('Helvetica').fontSize(10.5).fillColor(MUTED_COLOR).text('No attendance records yet.', left, doc.y, { width });
    return;
  }
  const columnX = COLUMNS.reduce<number[]>((xs, column, i) => {
    xs.push(i === 0 ? left : xs[i - 1]! + COLUMNS[i - 1]!.share * width);
    return xs;
  }, []);
  const bottom = () => doc.page.height - MARGIN - FOOTER_HEIGHT;
  let y = doc.y;

  const cells = (values: readonly string[], rowY: number) => {
    values.forEach((value, i) => {
      doc.text(value, columnX[i]! + 6, rowY + 5, { width: COLUMNS[i]!.share * width - 12, lineBreak: false });
    });
  };
  const header = () => {
    doc.rect(left, y, width, ROW_HEIGHT).fill(TEXT_COLOR);
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#ffffff');
    cells(
      COLUMNS.map((column) => column.title),
      y,
    );
    y += ROW_HEIGHT;
  };

  // The header must not be left alone at the foot of a page.
  if (y + 2 * ROW_HEIGHT > bottom()) {
    doc.addPage();
    y = MARGIN;
  }
  header();
  history.forEach((entry, index) => {
    if (y + ROW_HEIGHT > bottom()) {
      doc.addPage();
      y = MARGIN;
      header();
    }
    if (index % 2 === 1) doc.rect(left, y, width, ROW_HEIGHT).fill(STRIPE_COLOR);
    doc.font('Helvetica').fontSize(10).fillColor(TEXT_COLOR);
    cells([entry.date, toPdfText(lectureText(entry))], y);
    doc
      .fillColor(STATUS_COLORS[entry.status])
      .text(STATUS_WORDS[entry.status], columnX[2]! + 6, y + 5, {
        width: COLUMNS[2].share * width - 12,
        lineBreak: false,
      });
    y += ROW_HEIGHT;
  });
  doc.strokeColor(RULE_COLOR).lineWidth(1).moveTo(left, y).lineTo(left + width, y).stroke();
  doc.x = left;
  doc.y = y;
}

function drawFooters(doc: PDFKit.PDFDocument, pin: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // Text below the bottom margin would make pdfkit start a new page.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(MUTED_COLOR)
      .text(
        toPdfText(`${PORTAL_NAME} - Attendance report for PIN ${pin} - Page ${i - range.start + 1} of ${range.count}`),
        MARGIN,
        doc.page.height - MARGIN - 4,
        { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false },
      );
    doc.page.margins.bottom = bottomMargin;
  }
}
