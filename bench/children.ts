import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The processes a benchmark starts (a portal, the bare route, a browser) and the scratch folders it
 * makes, stopped and removed with it. A benchmark interrupted (Ctrl-C, a kill, an error it does
 * not catch) used to leave them: a portal holding its port, its data folder and a share of the two
 * cores, which skewed the next run's figures without saying so, and a database of a million marks
 * in the temporary folder.
 */
const running = new Set<{ child: ChildProcess; group: boolean }>();
const folders = new Set<string>();
let installed = false;

/**
 * Stops `child` (with `group`, its whole process group: it was spawned `detached`) when this
 * process exits, however it exits. Returns the child.
 */
export function stopOnExit<T extends ChildProcess>(child: T, { group = false }: { group?: boolean } = {}): T {
  install();
  const entry = { child, group };
  running.add(entry);
  child.once('exit', () => running.delete(entry));
  return child;
}

/** A new folder in the system's temporary folder, removed when this process exits, however it exits. */
export function scratchFolder(prefix: string): string {
  install();
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  folders.add(folder);
  return folder;
}

function install(): void {
  if (installed) return;
  installed = true;
  process.once('exit', () => {
    for (const { child, group } of running) {
      try {
        // At once: what they would write while closing goes to folders removed below.
        if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Gone already.
      }
    }
    for (const folder of folders) rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  });
  // A signal ends the process without its exit handlers; exiting on it runs them.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => process.exit(128 + constants.signals[signal]));
  }
}
