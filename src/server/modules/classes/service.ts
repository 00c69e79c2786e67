import type { Executor } from '../../db/client';
import { notFound } from '../../http-error';
import * as repo from './repository';

/** The portal's classes, in dashboard order. */
export function listClassNames(db: Executor): Promise<string[]> {
  return repo.listClassNames(db);
}

/** Throws the API's 404 when the class is not one of the portal's classes. */
export async function assertClassExists(db: Executor, className: string): Promise<void> {
  if (!(await repo.classExists(db, className))) throw notFound(`Class ${className} does not exist`);
}
