import { useEffect, useRef, useState } from 'react';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unsupported';

/** What one hook hears of the stream. */
interface Listener {
  /** The named events it wants. */
  readonly names: readonly string[];
  onEvent: (name: string, data: string) => void;
  onState: (state: LiveState) => void;
  /** The stream is back after a break: events sent meanwhile were not heard. */
  onReconnected: () => void;
}

/** Longest wait between attempts once the browser has given up reconnecting by itself. */
const MAX_BACKOFF_MS = 30_000;
const FIRST_BACKOFF_MS = 2_000;

/**
 * The page's one connection to GET /api/events, shared by every hook that listens (the header's
 * bell and the reports page): the server keeps a stream per connection, and a browser allows only
 * a few connections to one host over HTTP/1.1. Opened by the first listener, closed by the last.
 */
const listeners = new Set<Listener>();
let connection: { source: EventSource | null; state: LiveState; heard: Set<string>; close: () => void } | null = null;

function setState(state: LiveState) {
  if (!connection) return;
  connection.state = state;
  for (const listener of listeners) listener.onState(state);
}

/** Makes the current source pass on every event some listener wants. */
function hearAll() {
  const source = connection?.source;
  if (!connection || !source) return;
  for (const listener of listeners) {
    for (const name of listener.names) {
      if (connection.heard.has(name)) continue;
      connection.heard.add(name);
      source.addEventListener(name, (message) => {
        for (const each of listeners) if (each.names.includes(name)) each.onEvent(name, (message as MessageEvent<string>).data);
      });
    }
  }
}

/**
 * Opens the stream. The browser's EventSource reconnects by itself after a network error or a
 * server restart; it gives up only when an answer is not a stream (a proxy's 502 while the server
 * restarts, or a 401), and then a new one is opened with a growing delay.
 */
function open() {
  let retryTimer: number | undefined;
  let backoff = FIRST_BACKOFF_MS;
  let broken = false;
  let stopped = false;
  const opened = {
    source: null as EventSource | null,
    state: 'connecting' as LiveState,
    heard: new Set<string>(),
    close: () => {
      stopped = true;
      window.clearTimeout(retryTimer);
      opened.source?.close();
    },
  };
  connection = opened;

  const connect = () => {
    const current = new EventSource('/api/events');
    opened.source = current;
    opened.heard = new Set();
    hearAll();
    current.addEventListener('open', () => {
      backoff = FIRST_BACKOFF_MS;
      setState('live');
      if (broken) for (const listener of listeners) listener.onReconnected();
      broken = false;
    });
    current.addEventListener('error', () => {
      broken = true;
      setState('reconnecting');
      if (current.readyState !== EventSource.CLOSED || stopped) return;
      // The browser gave up on this one: try again later with a new connection.
      current.close();
      retryTimer = window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    });
  };
  connect();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  if (connection) hearAll();
  else open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      connection?.close();
      connection = null;
    }
  };
}

const supported = () => typeof EventSource !== 'undefined';

/**
 * Listens to the named events of GET /api/events (their `data` as sent) while the component is
 * mounted, over the page's shared connection. Returns how the stream is doing: 'unsupported'
 * where the browser has no EventSource (the page then shows what it fetched, without live updates).
 */
export function useLiveEvents(
  names: readonly string[],
  handlers: { onEvent: (name: string, data: string) => void; onReconnected?: () => void },
): LiveState {
  const [state, setLiveState] = useState<LiveState>(() => (!supported() ? 'unsupported' : (connection?.state ?? 'connecting')));
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const key = names.join('\n');

  useEffect(() => {
    if (!supported()) return;
    const unsubscribe = subscribe({
      names: key.split('\n'),
      onEvent: (name, data) => latest.current.onEvent(name, data),
      onState: setLiveState,
      onReconnected: () => latest.current.onReconnected?.(),
    });
    if (connection) setLiveState(connection.state);
    return unsubscribe;
  }, [key]);

  return state;
}
