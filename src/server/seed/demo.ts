import { statusOf } from '../../shared/attendance-rules';
import { CLASS_NAMES } from '../../shared/constants';
import { addDays, todayIn } from '../../shared/dates';
import type { Db } from '../db/client';
import { addUser, hasAnyUser } from '../modules/accounts/service';
import { recordPastRegister } from '../modules/attendance/service';
import { CLI } from '../modules/audit/service';
import { isRosterEmpty, putStudents } from '../modules/roster/service';
import { createTerm } from '../modules/terms/service';

export const DEMO_FACULTY = { email: 'faculty@demo.university.edu', password: 'faculty-demo-2026', name: 'Dr. Kavitha Rao' };
export const DEMO_ADMIN = { email: 'admin@demo.university.edu', password: 'admin-demo-2026', name: 'Prof. Suresh Menon' };
export const DEMO_STUDENT = { email: 'student@demo.university.edu', password: 'student-demo-2026' };
export const STUDENTS_PER_CLASS = 60;
const DEMO_DAYS = 14;

/** The demo's current term: from 30 days before the day the data is made to 90 days after, holding every demo register. */
export function demoTerm(today: string): { name: string; startsOn: string; endsOn: string } {
  const startsOn = addDays(today, -30);
  const month = Number(startsOn.slice(5, 7));
  return { name: `${month <= 6 ? 'Spring' : 'Autumn'} ${startsOn.slice(0, 4)}`, startsOn, endsOn: addDays(today, 90) };
}

const FIRST_NAMES = [
  'Aarav', 'Aditi', 'Akash', 'Ananya', 'Arjun', 'Bhavana', 'Chaitanya', 'Deepika', 'Dhruv', 'Divya',
  'Gayathri', 'Harsha', 'Ishaan', 'Jahnavi', 'Karthik', 'Keerthi', 'Lakshmi', 'Manish', 'Meghana', 'Naveen',
  'Nikhil', 'Pooja', 'Pranav', 'Priya', 'Rahul', 'Ravi', 'Sahithi', 'Sai Kiran', 'Sanjana', 'Shreya',
  'Siddharth', 'Sneha', 'Srinivas', 'Swathi', 'Tejaswini', 'Varun', 'Vikram', 'Vyshnavi', 'Yamini', 'Zoya',
  'Abhinav', 'Bhargavi', 'Charan', 'Harika', 'Kiran', 'Mounika', 'Pavan', 'Ramya', 'Sravani', 'Vamsi',
];
const LAST_NAMES = [
  'Reddy', 'Sharma', 'Naidu', 'Iyer', 'Patel', 'Rao', 'Gupta', 'Kumar', 'Verma', 'Nair',
  'Chowdary', 'Menon', 'Pillai', 'Joshi', 'Kulkarni', 'Bhat', 'Das', 'Mukherjee', 'Singh', 'Varma',
  'Goud', 'Shetty', 'Desai', 'Agarwal', 'Banerjee', 'Krishnan', 'Murthy', 'Prasad', 'Yadav', 'Mishra',
];

/** A small deterministic generator, so that every demo database looks the same. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function demoPin(classIndex: number, serial: number): string {
  return `23A51A05${classIndex + 1}${String(serial).padStart(2, '0')}`;
}

export interface DemoRosterEntry {
  pin: string;
  name: string;
  className: string;
}

export function demoRoster(): DemoRosterEntry[] {
  const random = mulberry32(2023);
  const roster: DemoRosterEntry[] = [];
  CLASS_NAMES.forEach((className, classIndex) => {
    for (let serial = 1; serial <= STUDENTS_PER_CLASS; serial += 1) {
      const first = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
      const last = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]!;
      roster.push({ pin: demoPin(classIndex, serial), name: `${first} ${last}`, className });
    }
  });
  return roster;
}

/** No account and nobody on the roster: a fresh install. */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  return !(await hasAnyUser(db)) && (await isRosterEmpty(db));
}

export interface DemoSummary {
  students: number;
  registers: number;
  faculty: typeof DEMO_FACULTY;
  admin: typeof DEMO_ADMIN;
  student: typeof DEMO_STUDENT & { pin: string };
}

/** Fills an empty database with a roster, two weeks of registers and three demo accounts (faculty, admin, student). */
export async function seedDemo(db: Db, timeZone: string): Promise<DemoSummary> {
  const roster = demoRoster();
  const random = mulberry32(42);
  const likelihood = new Map(roster.map((s) => [s.pin, 0.55 + random() * 0.43]));
  const today = todayIn(timeZone);
  const studentPin = demoPin(2, 1);
  let registerCount = 0;

  await db.transaction(async (tx) => {
    await putStudents(tx, roster);
    const faculty = await addUser(tx, { ...DEMO_FACULTY, role: 'faculty' });
    await addUser(tx, { ...DEMO_ADMIN, role: 'admin' });
    await addUser(tx, { ...DEMO_STUDENT, name: roster.find((s) => s.pin === studentPin)!.name, role: 'student', pin: studentPin });
    await createTerm(tx, CLI, demoTerm(today), timeZone);

    for (let back = DEMO_DAYS; back >= 1; back -= 1) {
      const date = addDays(today, -back);
      const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      for (const className of CLASS_NAMES) {
        const members = roster.filter((s) => s.className === className);
        const marks = members.map((s) => ({ ...s, status: statusOf(random() < likelihood.get(s.pin)!) }));
        await recordPastRegister(tx, { className, date, takenBy: faculty.id, takenAt: new Date(`${date}T10:00:00Z`), marks });
        registerCount += 1;
      }
    }
  });

  return { students: roster.length, registers: registerCount, faculty: DEMO_FACULTY, admin: DEMO_ADMIN, student: { ...DEMO_STUDENT, pin: studentPin } };
}
