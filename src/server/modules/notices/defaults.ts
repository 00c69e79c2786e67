import type { NoticeName } from '../../../shared/schemas/notices';

/**
 * The notices the portal shows until a university gives its own (PORTAL_PRIVACY_FILE,
 * PORTAL_ACCESSIBILITY_FILE): what this portal holds and does, in plain words.
 */
export const DEFAULT_NOTICES: Record<NoticeName, string> = {
  privacy: `# Privacy notice

This portal keeps the attendance of the university's students. This page says what it holds about you, why, who sees it and for how long.

## What the portal holds

- **The roster:** your PIN, your name and your class, from the university's records.
- **Your account:** your e-mail, your name, when you last signed in, and a one-way hash of your password (never the password itself). If you turn on two-step sign-in, the secret your authenticator app shares with the portal.
- **Your attendance:** each mark faculty give you (present, absent, late or excused) for each day or lecture, and every change to a mark, with who changed it and why.
- **Your profile, if you register one:** the name, designation, links, e-mail, phone and photo you give. Photos are stored re-encoded, without their camera data.
- **Correction requests** you send about a mark, and the replies to them.
- **Messages you send through the contact form**, with the name, e-mail and phone you give.
- **An audit trail** of what staff do (saving registers, approving profiles, changing accounts), which names the students and accounts concerned.
- **Technical records:** the sign-in cookie of each browser you use, and short-lived counters of sign-in attempts that protect accounts against guessing.

## Why

To keep the attendance registers the university must keep, to show you and your teachers your attendance, to let you ask for a mark to be corrected, to answer your messages, and to keep accounts secure.

## Who sees it

- **You** see your own attendance, profile and requests, and can download everything held about you as one file from your record page.
- **Faculty** see the registers of the classes and the students' records and profiles.
- **Administrators** manage accounts, the roster and classes, and read the audit trail.
- Approved profiles are shown to signed-in users of the portal. Nothing is sold or shared for advertising.

## How long

- Attendance records are kept as long as the university keeps its registers.
- Contact messages are deleted after a year, unless the university sets another period.
- When you ask for your data to be erased, an administrator erases your account, sessions, profile and photo, your correction texts and your messages, and replaces your name, PIN and e-mail in the registers and the audit trail with a pseudonym, so that class counts stay correct.
- If the university sets a period for it, students who have left (withdrawn from the roster) for that long are erased in the same way.
- Backups hold copies of the data until they are replaced.

## Your rights

You may ask to see, correct or erase the data held about you. Ask through the contact page, or the university's data protection officer.
`,
  accessibility: `# Accessibility statement

The university wants everyone to be able to use this portal, whatever their device, abilities or assistive technology.

## The standard

The portal aims to meet the **Web Content Accessibility Guidelines (WCAG) 2.2, level AA**. In particular:

- every page can be used with a keyboard alone, with a visible focus and a link to skip to the content;
- pages work with screen readers: forms have labels, errors are announced, tables have headers;
- text and controls have enough contrast in the light and the dark scheme;
- pages work on a phone 360 pixels wide, and when the text is enlarged to 200%;
- nothing depends on colour alone: attendance statuses are written as words too.

## Known exceptions

- The charts of the reports pages are not described point by point to screen readers; every figure they draw is also written beside them.
- The PDF attendance report is a plain document without tags for screen readers; the same figures are on the record page.

## Reporting a problem

If something in the portal is hard or impossible for you to use, tell us through the contact page: say which page and what happened. We will answer and fix what we can.
`,
};
