/**
 * A program that opens the configured database as the portal does (migrating it) and closes it:
 * tests start several at once, as several portal processes start on one new database.
 */
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, backupDir: config.backup.dir });
await database.close();
console.log('opened');
