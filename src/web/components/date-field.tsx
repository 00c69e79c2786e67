import '@mantine/dates/styles.css';
import { useLingui } from '@lingui/react/macro';
import { DatePickerInput, DatesProvider, type DatePickerInputProps, type DatePickerType } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { isLanguage, type Language } from '../../shared/languages';
import { formatPickerDate } from '../lib/calendar-date';

/**
 * The calendar's words (month and weekday names) in each language, as the date library has them:
 * English's are built in; Hindi's and Telugu's are loaded the first time a date field shows in
 * that language, each its own small file.
 */
const CALENDAR_WORDS: Record<Exclude<Language, 'en'>, () => Promise<unknown>> = {
  hi: () => import('dayjs/locale/hi'),
  te: () => import('dayjs/locale/te'),
};

const loadedWords = new Set<Language>(['en']);

/** The calendar's locale for the language shown: English until that language's words have loaded. */
function useCalendarLocale(): Language {
  const { i18n } = useLingui();
  const language: Language = isLanguage(i18n.locale) ? i18n.locale : 'en';
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (language === 'en' || loadedWords.has(language)) return;
    let live = true;
    CALENDAR_WORDS[language]().then(
      () => {
        loadedWords.add(language);
        if (live) setLoaded((count) => count + 1);
      },
      // Not loaded (the connection dropped): the calendar stays in English, the field's date in the language.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [language]);
  return loadedWords.has(language) ? language : 'en';
}

/**
 * The portal's date picker: a calendar icon, dates written as everywhere else in the portal
 * (`formatPickerDate`), 'Pick a date' until one is picked, and, with `clearLabel`, a clear button
 * that says what it clears. The calendar speaks the language shown. A range picker is
 * `type="range"`.
 */
export function DateField<Type extends DatePickerType = 'default'>({
  clearLabel,
  ...props
}: DatePickerInputProps<Type> & { clearLabel?: string }) {
  const { t } = useLingui();
  const locale = useCalendarLocale();
  const clearing = clearLabel === undefined ? {} : { clearable: true, clearButtonProps: { 'aria-label': clearLabel } };
  return (
    <DatesProvider settings={{ locale }}>
      <DatePickerInput<Type>
        placeholder={t`Pick a date`}
        leftSection={<IconCalendar size={18} aria-hidden />}
        valueFormatter={formatPickerDate}
        {...clearing}
        {...props}
      />
    </DatesProvider>
  );
}
