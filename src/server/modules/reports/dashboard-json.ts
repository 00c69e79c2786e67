import { ClassAttendanceSchema, type ClassAttendance, type Dashboard } from '../../../shared/schemas/reports';

/**
 * Each class row's JSON, made once per row object (decision 55): the dashboard's class table keeps
 * the rows of the classes not saved since, so at 833 classes a read serialises the few saved.
 */
const rowJson = new WeakMap<ClassAttendance, string>();

const CLASSES_KEY = '"classWiseAttendance":[]';

/**
 * The dashboard as the route's serializer writes it, byte for byte: everything but the class
 * table through `serialize` (the route's own, which checks it against its schema), with an empty
 * table that the rows' JSON then takes the place of, each row checked against its schema when its
 * JSON is made.
 */
export function dashboardJson(dashboard: Dashboard, serialize: (body: Dashboard) => string): string {
  const rows = dashboard.classWiseAttendance.map((row) => {
    let json = rowJson.get(row);
    if (json === undefined) {
      json = JSON.stringify(ClassAttendanceSchema.parse(row));
      rowJson.set(row, json);
    }
    return json;
  });
  const rest = serialize({ ...dashboard, classWiseAttendance: [] });
  // A string value cannot hold the key's text unescaped: the first match is the key.
  const at = rest.indexOf(CLASSES_KEY);
  if (at === -1) throw new Error('the dashboard has no class table to fill');
  return `${rest.slice(0, at)}"classWiseAttendance":[${rows.join(',')}]${rest.slice(at + CLASSES_KEY.length)}`;
}
