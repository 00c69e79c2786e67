import { msg } from '@lingui/core/macro';

/**
 * What the server says in English that the app shows as it comes (refusals, fields' problems, an
 * e-mail's delivery trouble), declared under its English text: serverText, and so every
 * ApiError's message, finds each one's translation by that text. One built with values (`Class
 * CSE9 does not exist`) is declared in server-templates.ts, its values named in braces. A text
 * declared in neither shows in English.
 * The sign-in page's own are in start-messages.ts; messages.test.ts holds this list to the shared
 * rules' constants and messages.
 */
export const SERVER_MESSAGES = [
  // Signing in, two-step sign-in and set-password links (shared/schemas/auth.ts, modules/auth, accounts).
  msg({ id: 'Please sign in', message: 'Please sign in' }),
  msg({ id: 'Passwords need at least 10 characters', message: 'Passwords need at least 10 characters' }),
  msg({ id: 'Choose a less common password', message: 'Choose a less common password' }),
  msg({
    id: 'This link has expired or was already used. Ask an administrator for a new one.',
    message: 'This link has expired or was already used. Ask an administrator for a new one.',
  }),
  msg({ id: 'Set up two-step sign-in to continue.', message: 'Set up two-step sign-in to continue.' }),
  msg({ id: 'The password is not right', message: 'The password is not right' }),
  msg({ id: 'Two-step sign-in is required for staff accounts here', message: 'Two-step sign-in is required for staff accounts here' }),
  msg({ id: 'Enter a recovery code', message: 'Enter a recovery code' }),
  msg({ id: 'Recovery codes are 11 characters', message: 'Recovery codes are 11 characters' }),
  msg({ id: 'Send either a code or a recovery code', message: 'Send either a code or a recovery code' }),
  msg({ id: 'Password sign-in is turned off here. Use single sign-on.', message: 'Password sign-in is turned off here. Use single sign-on.' }),
  msg({ id: 'Single sign-on is not configured', message: 'Single sign-on is not configured' }),
  msg({ id: 'Start the setup first', message: 'Start the setup first' }),
  msg({ id: 'Account not found', message: 'Account not found' }),

  // Who may do what (plugins/auth.ts, http-error.ts).
  msg({ id: 'You do not have access to this', message: 'You do not have access to this' }),
  msg({ id: 'This page is for faculty only', message: 'This page is for faculty only' }),
  msg({ id: 'This page is for administrators only', message: 'This page is for administrators only' }),

  // Any request (plugins/errors.ts, plugins/origin-check.ts).
  msg({ id: 'Invalid value', message: 'Invalid value' }),
  msg({ id: 'Invalid request', message: 'Invalid request' }),
  msg({ id: 'The request contains a value that cannot be stored', message: 'The request contains a value that cannot be stored' }),
  msg({ id: 'Something went wrong on the server. Please try again.', message: 'Something went wrong on the server. Please try again.' }),
  msg({
    id: 'The server took too long to answer. Please try again in a moment.',
    message: 'The server took too long to answer. Please try again in a moment.',
  }),
  msg({ id: 'The database is not answering. Please try again in a moment.', message: 'The database is not answering. Please try again in a moment.' }),
  msg({
    id: 'Another change was being saved at the same moment. Please try again.',
    message: 'Another change was being saved at the same moment. Please try again.',
  }),
  msg({ id: 'The address is not valid', message: 'The address is not valid' }),
  msg({ id: 'The address is too long', message: 'The address is too long' }),
  msg({ id: 'The request is not valid', message: 'The request is not valid' }),
  msg({ id: 'Text may not contain the NUL character', message: 'Text may not contain the NUL character' }),
  msg({ id: 'The request body is not valid JSON', message: 'The request body is not valid JSON' }),
  msg({ id: 'The request body is too large', message: 'The request body is too large' }),
  msg({ id: 'Send the request body as application/json', message: 'Send the request body as application/json' }),
  msg({ id: 'Requests from other sites are not accepted', message: 'Requests from other sites are not accepted' }),

  // Dates, PINs and links (shared/schemas/common.ts).
  msg({ id: 'Dates are written YYYY-MM-DD', message: 'Dates are written YYYY-MM-DD' }),
  msg({ id: 'Please enter a PIN number', message: 'Please enter a PIN number' }),
  msg({ id: 'A PIN has at most 32 characters', message: 'A PIN has at most 32 characters' }),
  msg({ id: 'A PIN holds only letters, digits, - and /', message: 'A PIN holds only letters, digits, - and /' }),
  msg({ id: 'Links have at most 2048 characters', message: 'Links have at most 2048 characters' }),
  msg({ id: 'Links must start with http:// or https://', message: 'Links must start with http:// or https://' }),

  // Registers and marks (shared/schemas/attendance.ts, modules/attendance).
  msg({ id: 'A class name is required', message: 'A class name is required' }),
  msg({ id: 'Class names have at most 40 characters', message: 'Class names have at most 40 characters' }),
  msg({ id: 'A period is a whole number from 0 to 12', message: 'A period is a whole number from 0 to 12' }),
  msg({ id: 'A status is present, absent, late or excused', message: 'A status is present, absent, late or excused' }),
  msg({ id: 'Choose a period', message: 'Choose a period' }),
  msg({
    id: 'Each record needs a pin and a status (present, absent, late or excused)',
    message: 'Each record needs a pin and a status (present, absent, late or excused)',
  }),
  msg({ id: 'A register holds at most 2000 students', message: 'A register holds at most 2000 students' }),
  msg({ id: 'A reason has at most 500 characters', message: 'A reason has at most 500 characters' }),
  msg({ id: 'markedAt is a time such as 2026-11-23T09:05:00+05:30', message: 'markedAt is a time such as 2026-11-23T09:05:00+05:30' }),
  msg({ id: 'markedAt is in the future', message: 'markedAt is in the future' }),
  msg({
    id: 'This register was changed since you opened it: check the marks saved meanwhile and send it again',
    message: 'This register was changed since you opened it: check the marks saved meanwhile and send it again',
  }),
  msg({ id: 'This Idempotency-Key was used for a different request', message: 'This Idempotency-Key was used for a different request' }),
  msg({ id: 'An Idempotency-Key is a UUID', message: 'An Idempotency-Key is a UUID' }),
  msg({ id: 'If-Match is one revision of this register, as its ETag gave it', message: 'If-Match is one revision of this register, as its ETag gave it' }),
  msg({
    id: 'Another request with this Idempotency-Key was under way: send it again',
    message: 'Another request with this Idempotency-Key was under way: send it again',
  }),

  // Self check-in (shared/schemas/checkins.ts, modules/checkins).
  msg({ id: 'minutes is a whole number from 1 to 30', message: 'minutes is a whole number from 1 to 30' }),
  msg({ id: 'lateAfterMinutes is a whole number from 0 to 30', message: 'lateAfterMinutes is a whole number from 0 to 30' }),
  msg({ id: 'lateAfterMinutes must be less than the check-in\'s minutes', message: 'lateAfterMinutes must be less than the check-in\'s minutes' }),
  msg({ id: 'There is no such check-in', message: 'There is no such check-in' }),
  msg({ id: 'Send either the token scanned or the code typed', message: 'Send either the token scanned or the code typed' }),
  msg({ id: 'Give the reason for removing the check-in', message: 'Give the reason for removing the check-in' }),
  msg({ id: 'A check-in is already open for this register: close it first', message: 'A check-in is already open for this register: close it first' }),
  msg({ id: 'This check-in is closed', message: 'This check-in is closed' }),
  msg({ id: 'This code is not valid: scan the code on the screen again', message: 'This code is not valid: scan the code on the screen again' }),
  msg({ id: 'This code has expired: scan the code on the screen again', message: 'This code has expired: scan the code on the screen again' }),
  msg({ id: 'That code is not the one on the screen now: type the code shown', message: 'That code is not the one on the screen now: type the code shown' }),
  msg({ id: 'No check-in is open for your class', message: 'No check-in is open for your class' }),
  msg({
    id: 'This check-in accepts only the campus network: connect to the campus Wi-Fi and scan again',
    message: 'This check-in accepts only the campus network: connect to the campus Wi-Fi and scan again',
  }),
  msg({ id: 'Only students check in', message: 'Only students check in' }),
  msg({ id: 'Faculty removed your check-in: speak to them', message: 'Faculty removed your check-in: speak to them' }),
  msg({ id: 'No scan is waiting: scan the code on the screen again', message: 'No scan is waiting: scan the code on the screen again' }),
  msg({
    id: 'Your scan is more than 3 minutes old: scan the code on the screen again',
    message: 'Your scan is more than 3 minutes old: scan the code on the screen again',
  }),
  msg({
    id: 'A campus-only check-in needs the campus networks (PORTAL_CAMPUS_NETWORKS): ask an administrator to set them',
    message: 'A campus-only check-in needs the campus networks (PORTAL_CAMPUS_NETWORKS): ask an administrator to set them',
  }),
  msg({ id: 'You are not on a class roster', message: 'You are not on a class roster' }),
  msg({
    id: 'deviceKey must be a P-256 public key as WebCrypto exports it raw, in base64url',
    message: 'deviceKey must be a P-256 public key as WebCrypto exports it raw, in base64url',
  }),

  // Correction requests (shared/schemas/corrections.ts, modules/corrections).
  msg({ id: 'You have no mark on that date and period', message: 'You have no mark on that date and period' }),
  msg({ id: 'There is already an open request for this mark', message: 'There is already an open request for this mark' }),
  msg({ id: 'This request has been decided already', message: 'This request has been decided already' }),
  msg({ id: 'There is no such correction request', message: 'There is no such correction request' }),
  msg({ id: 'A reason is required', message: 'A reason is required' }),
  msg({ id: 'A reply is required', message: 'A reply is required' }),
  msg({ id: 'A reply has at most 500 characters', message: 'A reply has at most 500 characters' }),
  msg({ id: 'A request id is a UUID', message: 'A request id is a UUID' }),
  msg({ id: 'Only students request corrections, of their own marks', message: 'Only students request corrections, of their own marks' }),

  // Students' records and profiles (shared/schemas/students.ts, profiles.ts, modules/profiles).
  msg({ id: 'No student records found for this PIN', message: 'No student records found for this PIN' }),
  msg({ id: 'Students can only see their own attendance and profile', message: 'Students can only see their own attendance and profile' }),
  msg({ id: 'before must be the nextBefore of an earlier page', message: 'before must be the nextBefore of an earlier page' }),
  msg({ id: 'limit must be a whole number from 1 to 500', message: 'limit must be a whole number from 1 to 500' }),
  msg({ id: 'Name, Designation, and PIN Number are required', message: 'Name, Designation, and PIN Number are required' }),
  msg({ id: 'User with this PIN already exists', message: 'User with this PIN already exists' }),
  msg({ id: 'No profile found for this PIN', message: 'No profile found for this PIN' }),
  msg({ id: 'This PIN Number is not on the roster', message: 'This PIN Number is not on the roster' }),
  msg({ id: 'You can register only your own PIN Number', message: 'You can register only your own PIN Number' }),
  msg({ id: 'It will appear once faculty have reviewed it.', message: 'It will appear once faculty have reviewed it.' }),
  msg({ id: 'The photo must be a PNG, JPEG or WebP image', message: 'The photo must be a PNG, JPEG or WebP image' }),
  msg({ id: 'The photo must be at most 2 MB', message: 'The photo must be at most 2 MB' }),
  msg({ id: 'Profile not found', message: 'Profile not found' }),
  msg({ id: 'This profile has no photo', message: 'This profile has no photo' }),
  msg({ id: 'Full Name has at most 200 characters', message: 'Full Name has at most 200 characters' }),
  msg({ id: 'Designation/Branch has at most 200 characters', message: 'Designation/Branch has at most 200 characters' }),
  msg({ id: 'Image Description must be text', message: 'Image Description must be text' }),
  msg({ id: 'Image Description has at most 300 characters', message: 'Image Description has at most 300 characters' }),
  msg({ id: 'Send the changes as a JSON object', message: 'Send the changes as a JSON object' }),

  // A profile's links, each named as on the form (shared/schemas/profiles.ts).
  msg({ id: 'Profile Image URL must be text', message: 'Profile Image URL must be text' }),
  msg({ id: 'Profile Image URL has at most 2048 characters', message: 'Profile Image URL has at most 2048 characters' }),
  msg({
    id: 'Profile Image URL must be a link starting with http:// or https://',
    message: 'Profile Image URL must be a link starting with http:// or https://',
  }),
  msg({ id: 'LinkedIn URL must be text', message: 'LinkedIn URL must be text' }),
  msg({ id: 'LinkedIn URL has at most 2048 characters', message: 'LinkedIn URL has at most 2048 characters' }),
  msg({ id: 'LinkedIn URL must be a link starting with http:// or https://', message: 'LinkedIn URL must be a link starting with http:// or https://' }),
  msg({ id: 'GitHub URL must be text', message: 'GitHub URL must be text' }),
  msg({ id: 'GitHub URL has at most 2048 characters', message: 'GitHub URL has at most 2048 characters' }),
  msg({ id: 'GitHub URL must be a link starting with http:// or https://', message: 'GitHub URL must be a link starting with http:// or https://' }),
  msg({ id: 'LeetCode URL must be text', message: 'LeetCode URL must be text' }),
  msg({ id: 'LeetCode URL has at most 2048 characters', message: 'LeetCode URL has at most 2048 characters' }),
  msg({ id: 'LeetCode URL must be a link starting with http:// or https://', message: 'LeetCode URL must be a link starting with http:// or https://' }),
  msg({ id: 'Resume Link must be text', message: 'Resume Link must be text' }),
  msg({ id: 'Resume Link has at most 2048 characters', message: 'Resume Link has at most 2048 characters' }),
  msg({ id: 'Resume Link must be a link starting with http:// or https://', message: 'Resume Link must be a link starting with http:// or https://' }),
  msg({ id: 'Portfolio Link must be text', message: 'Portfolio Link must be text' }),
  msg({ id: 'Portfolio Link has at most 2048 characters', message: 'Portfolio Link has at most 2048 characters' }),
  msg({ id: 'Portfolio Link must be a link starting with http:// or https://', message: 'Portfolio Link must be a link starting with http:// or https://' }),

  // The contact form and inbox (shared/schemas/contact.ts).
  msg({ id: 'Message sent successfully!', message: 'Message sent successfully!' }),
  msg({ id: 'Error sending message!', message: 'Error sending message!' }),
  msg({ id: 'Message not found', message: 'Message not found' }),
  msg({ id: 'Full Name is required', message: 'Full Name is required' }),
  msg({ id: 'Subject is required', message: 'Subject is required' }),
  msg({ id: 'Subject has at most 200 characters', message: 'Subject has at most 200 characters' }),
  msg({ id: 'Message is required', message: 'Message is required' }),
  msg({ id: 'Message has at most 5000 characters', message: 'Message has at most 5000 characters' }),
  msg({ id: 'Email is required', message: 'Email is required' }),
  msg({ id: 'Email has at most 254 characters', message: 'Email has at most 254 characters' }),
  msg({ id: 'Please enter a valid phone number', message: 'Please enter a valid phone number' }),
  msg({ id: 'Phone Number has at most 40 characters', message: 'Phone Number has at most 40 characters' }),
  msg({ id: 'Send the message as a JSON object', message: 'Send the message as a JSON object' }),
  msg({ id: 'read must be true or false', message: 'read must be true or false' }),

  // Reports (shared/schemas/reports.ts).
  msg({ id: 'Error loading dashboard data. Please try again.', message: 'Error loading dashboard data. Please try again.' }),
  msg({ id: 'below must be a percentage from 0 to 100', message: 'below must be a percentage from 0 to 100' }),
  msg({ id: 'subject must be a subject code', message: 'subject must be a subject code' }),

  // Accounts (shared/schemas/admin-users.ts, modules/accounts).
  msg({
    id: 'This is the last enabled admin account: make another account an admin before disabling or demoting this one.',
    message: 'This is the last enabled admin account: make another account an admin before disabling or demoting this one.',
  }),
  msg({
    id: 'Only an account with a roster PIN can be a student: add the student as a new account with their PIN.',
    message: 'Only an account with a roster PIN can be a student: add the student as a new account with their PIN.',
  }),
  msg({
    id: 'This account is disabled: enable it before making a set-password link.',
    message: 'This account is disabled: enable it before making a set-password link.',
  }),
  msg({ id: 'Search for at most 200 characters', message: 'Search for at most 200 characters' }),
  msg({ id: 'Please enter a name', message: 'Please enter a name' }),
  msg({ id: 'A name has at most 200 characters', message: 'A name has at most 200 characters' }),
  msg({ id: 'Say what to change: name, role or disabled', message: 'Say what to change: name, role or disabled' }),
  msg({ id: 'Name is required', message: 'Name is required' }),
  msg({ id: 'Name: at most 200 characters', message: 'Name: at most 200 characters' }),
  msg({ id: 'Only student accounts have a PIN', message: 'Only student accounts have a PIN' }),
  msg({ id: 'No such account', message: 'No such account' }),
  msg({ id: 'A student account needs the student\'s roster PIN', message: 'A student account needs the student\'s roster PIN' }),
  msg({ id: 'The mail server refused the sign-in of PORTAL_SMTP_URL', message: 'The mail server refused the sign-in of PORTAL_SMTP_URL' }),
  msg({ id: 'The mail server did not answer in time', message: 'The mail server did not answer in time' }),

  // Classes, terms, subjects and timetables (shared/schemas/classes.ts, terms.ts, subjects.ts, timetable.ts, alerts.ts).
  msg({ id: 'A class name holds only letters, digits, spaces and -', message: 'A class name holds only letters, digits, spaces and -' }),
  msg({ id: 'Please enter the class\'s name', message: 'Please enter the class\'s name' }),
  msg({ id: 'A class name has at most 32 characters', message: 'A class name has at most 32 characters' }),
  msg({ id: 'position is a whole number', message: 'position is a whole number' }),
  msg({ id: 'position counts from 1', message: 'position counts from 1' }),
  msg({ id: 'Nothing to change: send a name, position or archived', message: 'Nothing to change: send a name, position or archived' }),
  msg({ id: 'No term with this id', message: 'No term with this id' }),
  msg({ id: 'A term must end on or after the day it starts', message: 'A term must end on or after the day it starts' }),
  msg({ id: 'Please enter the term\'s name', message: 'Please enter the term\'s name' }),
  msg({ id: 'A term\'s name has at most 100 characters', message: 'A term\'s name has at most 100 characters' }),
  msg({ id: 'Nothing to change: send a name, startsOn or endsOn', message: 'Nothing to change: send a name, startsOn or endsOn' }),
  msg({ id: 'term is a term id or all', message: 'term is a term id or all' }),
  msg({ id: 'A subject code has 1 to 20 letters, digits, - or _', message: 'A subject code has 1 to 20 letters, digits, - or _' }),
  msg({ id: 'A subject needs a name', message: 'A subject needs a name' }),
  msg({ id: 'A subject name has at most 120 characters', message: 'A subject name has at most 120 characters' }),
  msg({ id: 'The teacher must be an active faculty account', message: 'The teacher must be an active faculty account' }),
  msg({ id: 'weekday is 1 (Monday) to 7 (Sunday)', message: 'weekday is 1 (Monday) to 7 (Sunday)' }),
  msg({ id: 'period is 1 to 12', message: 'period is 1 to 12' }),
  msg({ id: 'Each slot needs a subject code', message: 'Each slot needs a subject code' }),
  msg({ id: 'A week has at most 84 slots', message: 'A week has at most 84 slots' }),
  msg({
    id: 'The first line must be class,weekday,period,subject (and ,teacher if the file names teachers)',
    message: 'The first line must be class,weekday,period,subject (and ,teacher if the file names teachers)',
  }),
  msg({ id: 'Times are written HH:MM, 24-hour (09:00, 13:45)', message: 'Times are written HH:MM, 24-hour (09:00, 13:45)' }),
  msg({ id: 'Periods are numbered 1 to 12', message: 'Periods are numbered 1 to 12' }),

  // The roster, the audit trail, imports and students' data (shared/schemas/roster.ts, audit.ts, notices.ts, personal-data.ts, modules/roster-import, firestore-import, personal-data).
  msg({ id: 'withdraw is true or false', message: 'withdraw is true or false' }),
  msg({ id: 'before is the nextBefore of the previous page', message: 'before is the nextBefore of the previous page' }),
  msg({ id: 'from must not be after to', message: 'from must not be after to' }),
  msg({ id: 'The notices are privacy and accessibility', message: 'The notices are privacy and accessibility' }),
  msg({ id: 'Type the PIN in confirm', message: 'Type the PIN in confirm' }),
  msg({
    id: 'confirm must be the student\'s PIN, typed again: nothing was erased',
    message: 'confirm must be the student\'s PIN, typed again: nothing was erased',
  }),
  msg({ id: 'Only a student can download their own data here', message: 'Only a student can download their own data here' }),
  msg({ id: 'This account has no PIN', message: 'This account has no PIN' }),
  msg({
    id: 'The file is empty: expected a header line pin,name,class and one line per student',
    message: 'The file is empty: expected a header line pin,name,class and one line per student',
  }),
  msg({ id: 'The file lists no students', message: 'The file lists no students' }),
  msg({ id: 'Send the roster file as text/csv', message: 'Send the roster file as text/csv' }),
  msg({
    id: 'The roster file is larger than 10 MB: split it into several files and import them one after another',
    message: 'The roster file is larger than 10 MB: split it into several files and import them one after another',
  }),
  msg({ id: 'Send the export as application/json or application/x-ndjson', message: 'Send the export as application/json or application/x-ndjson' }),
  msg({
    id: 'The export is larger than 64 MB: import it with npm run portal -- import firestore FILE on the server',
    message: 'The export is larger than 64 MB: import it with npm run portal -- import firestore FILE on the server',
  }),
  msg({ id: 'It names no class', message: 'It names no class' }),
  msg({ id: 'It has no date (YYYY-MM-DD) and no timestamp', message: 'It has no date (YYYY-MM-DD) and no timestamp' }),
  msg({ id: 'It has no records', message: 'It has no records' }),
  msg({ id: 'None of its records has a PIN to import', message: 'None of its records has a PIN to import' }),
];
