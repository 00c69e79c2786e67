/**
 * What the server writes to people in their language (e-mails, the notices in the portal's bell,
 * the unsubscribe pages): English, the source, as ICU MessageFormat strings under stable ids.
 * hi.ts and te.ts translate every id (their type makes a missing one fail the typecheck), keeping
 * each message's arguments (i18n.test.ts). Numbers reach the messages already written in the
 * language (Latin digits, Indian grouping); a plural's `#` is written the same way.
 */
export const en = {
  // Every e-mail to a person.
  'mail.hello': 'Hello {name},',

  // The e-mail of a set-password link ({portal}: the portal's name).
  'setPassword.subject.new': 'Your {portal} account: choose your password',
  'setPassword.subject.reset': '{portal}: choose a new password',
  'setPassword.opening.new': 'An administrator has made you an account on the {portal}.',
  'setPassword.opening.reset': 'An administrator has made you a link to choose a new password for the {portal}.',
  'setPassword.open': 'Open this link to choose your password:',
  'setPassword.expiry': 'The link works once, for {hours, plural, one {# hour} other {# hours}}. If you did not expect it, ignore this e-mail.',

  // A student below the threshold ({percent}: one decimal).
  'alert.belowThreshold.title': 'Attendance below {threshold}%',
  'alert.belowThreshold.subjectTitle': 'Attendance below {threshold}% in {subject}',
  'alert.belowThreshold.body': 'Your attendance this term is {percent}%: {attended} of {held} lectures attended, below the {threshold}% required.',
  'alert.belowThreshold.subjectBody':
    'Your attendance in {subject} this term is {percent}%: {attended} of {held} lectures attended, below the {threshold}% required.',
  // The absence dates after a notice's text or a digest's line ({dates}: a list of dates).
  'alert.absentOn': 'Absent on {dates}.',
  'alert.absentOnLast': 'Absent on {dates} (the last 10 of {count}).',
  // Absences in a row.
  'alert.consecutive.title': 'Absent {count} times in a row',
  'alert.consecutive.subjectTitle': 'Absent {count} times in a row in {subject}',
  'alert.consecutive.body': 'You were marked absent on {dates}. If a mark is wrong, ask for a correction from your record.',
  'alert.consecutive.subjectBody': 'You were marked absent in {subject} on {dates}. If a mark is wrong, ask for a correction from your record.',
  // A register not taken 30 minutes after its period ({startsAt}-{endsAt}: HH:MM).
  'alert.registerMissing.title': 'Register not taken: {className}, period {period}',
  'alert.registerMissing.body': 'The {subject} lecture of {className} (period {period}, {startsAt}-{endsAt} on {date}) has no register yet.',

  // The foot of every alert e-mail.
  'alertMail.footer.choose': 'Choose how you get these e-mails on your account page: {url}',
  'alertMail.footer.unsubscribe': 'Or stop them with the unsubscribe link your mail program shows.',

  // The daily or weekly digest.
  'digest.subject': 'Attendance alerts: {count} new',
  'digest.newSince': 'New since the last e-mail:',
  'digest.student.heading': 'Below the threshold now:',
  'digest.student.overall': 'Overall',
  'digest.student.line': '- {label}: {percent}% ({attended} of {held}).',
  'digest.student.canMiss': 'With {left} lectures left this term, you can still miss {canMiss}.',
  'digest.student.unreachable': '{threshold}% can no longer be reached this term.',
  'digest.student.record': 'Your record: {url}',
  'digest.faculty.heading': 'Students of your classes below {threshold}%:',
  'digest.faculty.overall': 'overall',
  'digest.faculty.line': '- {name} ({pin}, {className}), {scope}',
  'digest.faculty.lineWithFigure': '- {name} ({pin}, {className}), {scope}: {percent}% when it fell',
  'digest.faculty.search': "Search a student's record: {url}",

  // The page an e-mail's unsubscribe link opens, and the page after its button.
  'unsubscribe.ask.title': 'Stop alert e-mails',
  'unsubscribe.ask.text': 'You will still see alerts when you sign in to the portal.',
  'unsubscribe.ask.button': 'Stop alert e-mails',
  'unsubscribe.done.title': 'Alert e-mails stopped',
  'unsubscribe.done.text': 'You will get no more alert e-mails. To have them again, choose on your account page how you get alerts.',
} as const;

export type MessageId = keyof typeof en;
