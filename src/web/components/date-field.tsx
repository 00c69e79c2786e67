import '@mantine/dates/styles.css';
import { DatePickerInput, type DatePickerInputProps, type DatePickerType } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { formatPickerDate } from '../lib/calendar-date';

/**
 * The portal's date picker: a calendar icon, dates written as everywhere else in the portal
 * (`formatPickerDate`), 'Pick a date' until one is picked, and, with `clearLabel`, a clear button
 * that says what it clears. A range picker is `type="range"`.
 */
export function DateField<Type extends DatePickerType = 'default'>({
  clearLabel,
  ...props
}: DatePickerInputProps<Type> & { clearLabel?: string }) {
  const clearing = clearLabel === undefined ? {} : { clearable: true, clearButtonProps: { 'aria-label': clearLabel } };
  return (
    <DatePickerInput<Type>
      placeholder="Pick a date"
      leftSection={<IconCalendar size={18} aria-hidden />}
      valueFormatter={formatPickerDate}
      {...clearing}
      {...props}
    />
  );
}
