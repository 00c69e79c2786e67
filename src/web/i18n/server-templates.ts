import { msg } from '@lingui/core/macro';

/**
 * What the server says with values in it, as its English text with each value named in braces
 * (`PIN {pin} is not on the {className} roster`): serverText matches a text against each and
 * shows its translation with the same values. The values stay as the server wrote them. The first
 * template that matches is taken: a more particular one comes before a more general one.
 */
export const SERVER_TEMPLATES = [
  msg({ id: 'Class {className} does not exist', message: 'Class {className} does not exist' }),
  msg({ id: 'Class {className} has no students on its roster', message: 'Class {className} has no students on its roster' }),
  msg({ id: 'PIN {pin} is not on the {className} roster', message: 'PIN {pin} is not on the {className} roster' }),
  msg({ id: 'PINs {pins} and {count} more are not on the {className} roster', message: 'PINs {pins} and {count} more are not on the {className} roster' }),
  msg({ id: 'PINs {pins} are not on the {className} roster', message: 'PINs {pins} are not on the {className} roster' }),
  msg({ id: 'PIN {pin} is not on the roster', message: 'PIN {pin} is not on the roster' }),
  msg({ id: 'PIN {pin} appears more than once', message: 'PIN {pin} appears more than once' }),
  msg({ id: 'Attendance cannot be taken for a future date (today is {today})', message: 'Attendance cannot be taken for a future date (today is {today})' }),
  msg({ id: 'Period {period} is not on the {className} timetable for that day', message: 'Period {period} is not on the {className} timetable for that day' }),
  msg({ id: 'Period {period} is not on the {className} timetable for that day: choose its subject', message: 'Period {period} is not on the {className} timetable for that day: choose its subject' }),
  msg({ id: 'Period {period} is not on the {className} timetable for that day: save the register with its subject first', message: 'Period {period} is not on the {className} timetable for that day: save the register with its subject first' }),
  msg({ id: 'There is no subject with the code {code}', message: 'There is no subject with the code {code}' }),
  msg({ id: 'There are no subjects with the codes {codes}', message: 'There are no subjects with the codes {codes}' }),
  msg({ id: 'There is already a subject with the code {code}', message: 'There is already a subject with the code {code}' }),
  msg({ id: 'There is already a term named {name}', message: 'There is already a term named {name}' }),
  msg({ id: 'These dates overlap {name} ({startsOn} to {endsOn}): terms cannot overlap', message: 'These dates overlap {name} ({startsOn} to {endsOn}): terms cannot overlap' }),
  msg({ id: 'Nothing is held about PIN {pin}', message: 'Nothing is held about PIN {pin}' }),
  msg({ id: '{pin} is already erased', message: '{pin} is already erased' }),
  msg({ id: '{pin} has no check-in here to remove', message: '{pin} has no check-in here to remove' }),
];
