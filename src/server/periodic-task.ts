/**
 * Work a server process does on a timer (scheduled backups, retention): first a while after the
 * start, so that the first requests are not queued behind it, then at every interval; never two
 * runs at once (a run still going when the next is due makes that one skip). The timers do not
 * keep the process alive. `run` reports its own outcome; a failure goes to `onError`.
 */
export function startPeriodicTask(
  run: () => Promise<void>,
  { firstMs, everyMs, onError }: { firstMs: number; everyMs: number; onError: (err: unknown) => void },
): { stop(): void } {
  let running = false;
  const check = () => {
    if (running) return;
    running = true;
    run()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(check, firstMs);
  const timer = setInterval(check, everyMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
