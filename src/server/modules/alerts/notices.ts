/**
 * What each kind of notice says. A notice keeps its kind's values (params), so that its title and
 * body are written in the language of whoever reads them: the account in the portal's bell, the
 * recipient in an e-mail. Its stored title and body hold its English.
 */
import { z } from 'zod';
import type { AlertRule } from '../../../shared/schemas/alerts';
import { translator, type Translator } from '../../i18n';

const Dates = z.array(z.string());

export const NoticeParamsSchemas = {
  'below-threshold': z.object({
    threshold: z.number(),
    /** The attendance in percent, unrounded. */
    percent: z.number(),
    attended: z.number(),
    held: z.number(),
    /** The subject's name; null: overall. */
    subject: z.string().nullable(),
    /** The last absence dates (at most 10), oldest first. */
    absences: Dates,
  }),
  'consecutive-absences': z.object({
    count: z.number(),
    /** The subject's name; null: the whole-day registers. */
    subject: z.string().nullable(),
    dates: Dates,
  }),
  'register-missing': z.object({
    className: z.string(),
    period: z.number(),
    /** The subject's name (its code when it has none). */
    subject: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    date: z.string(),
  }),
} satisfies Record<AlertRule, z.ZodType>;

export type NoticeParams<K extends AlertRule = AlertRule> = z.infer<(typeof NoticeParamsSchemas)[K]>;

/** A notice's kind with its values. */
export type NoticeContent = { [K in AlertRule]: { kind: K; params: NoticeParams<K> } }[AlertRule];

/** Dates as the language lists them: '2026-10-01, 2026-10-02 and 2026-10-05'. */
export function datesText(tr: Translator, dates: readonly string[]): string {
  return tr.list(dates.map((date) => tr.date(date)));
}

/** A notice's title and body in the translator's language. */
export function noticeText(tr: Translator, notice: NoticeContent): { title: string; body: string } {
  switch (notice.kind) {
    case 'below-threshold': {
      const { threshold, percent, attended, held, subject, absences } = notice.params;
      const figures = { percent: tr.number(percent, 1), attended, held, threshold };
      const body =
        subject === null ? tr.t('alert.belowThreshold.body', figures) : tr.t('alert.belowThreshold.subjectBody', { ...figures, subject });
      return {
        title: subject === null ? tr.t('alert.belowThreshold.title', { threshold }) : tr.t('alert.belowThreshold.subjectTitle', { threshold, subject }),
        body: absences.length > 0 ? `${body} ${tr.t('alert.absentOn', { dates: datesText(tr, absences) })}` : body,
      };
    }
    case 'consecutive-absences': {
      const { count, subject, dates } = notice.params;
      const listed = datesText(tr, dates);
      return subject === null
        ? { title: tr.t('alert.consecutive.title', { count }), body: tr.t('alert.consecutive.body', { dates: listed }) }
        : { title: tr.t('alert.consecutive.subjectTitle', { count, subject }), body: tr.t('alert.consecutive.subjectBody', { dates: listed, subject }) };
    }
    case 'register-missing': {
      const { className, period, subject, startsAt, endsAt, date } = notice.params;
      return {
        title: tr.t('alert.registerMissing.title', { className, period }),
        body: tr.t('alert.registerMissing.body', { subject, className, period, startsAt, endsAt, date: tr.date(date) }),
      };
    }
  }
}

/** A stored notice's content, or null when it has none that reads (a notice made before params were kept). */
export function storedContent(kind: string, params: unknown): NoticeContent | null {
  if (params === null || params === undefined || !(kind in NoticeParamsSchemas)) return null;
  const parsed = NoticeParamsSchemas[kind as AlertRule].safeParse(params);
  return parsed.success ? ({ kind, params: parsed.data } as NoticeContent) : null;
}

/** A stored notice's title and body in the translator's language: from its values, else as it was stored. */
export function storedNoticeText(tr: Translator, row: { kind: string; params: unknown; title: string; body: string }): { title: string; body: string } {
  const content = storedContent(row.kind, row.params);
  return content ? noticeText(tr, content) : { title: row.title, body: row.body };
}

/** English, as stored with each notice. */
export const english = () => translator('en');
