import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The processes a benchmark starts (a portal, the bare route, a browser), stopped with it. A
 * benchmark interrupted (Ctrl-C, a kill, an error it does not catch) used to leave them running:
 * a portal holding its port, its data folder and a share of the two cores, which skewed the next
 * run's figures without saying so.
 */
const running = new Set<{ child: ChildProcess; group: boolean }>();
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

function install(): void {
  if (installed) return;
  installed = true;
  process.once('exit', () => {
    for (const { child, group } of running) {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
        else child.kill('SIGTERM');
      } catch {
        // Gone already.
      }
    }
  });
  // A signal ends the process without its exit handlers; exiting on it runs them.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => process.exit(128 + constants.signals[signal]));
  }
}
