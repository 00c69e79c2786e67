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
 * The page's one connection to each stream (GET /api/events, a check-in's), shared by every hook
 * that listens to it (the header's bell and the reports page): the server keeps a stream per
 * connection, and a browser allows only a few connections to one host over HTTP/1.1. Opened by
 * the first listener, closed by the last.
 */
interface Connection {
  readonly url: string;
  readonly listeners: Set<Listener>;
  source: EventSource | null;
  state: LiveState;
  heard: Set<string>;
  close: () => void;
}

const connections = new Map<string, Connection>();

function setState(connection: Connection, state: LiveState) {
  connection.state = state;
  for (const listener of connection.listeners) listener.onState(state);
}

/** Makes the current source pass on every event some listener wants. */
function hearAll(connection: Connection) {
  const source = connection.source;
  if (!source) return;
  for (const listener of connection.listeners) {
    for (const name of listener.names) {
      if (connection.heard.has(name)) continue;
      connection.heard.add(name);
      source.addEventListener(name, (message) => {
        for (const each of connection.listeners) if (each.names.includes(name)) each.onEvent(name, (message as MessageEvent<string>).data);
      });
    }
  }
}

/**
 * Opens the stream. The browser's EventSource reconnects by itself after a network error or a
 * server restart; it gives up only when an answer is not a stream (a proxy's 502 while the server
 * restarts, or a 401), and then a new one is opened with a growing delay.
 */
function open(url: string): Connection {
  let retryTimer: number | undefined;
  let backoff = FIRST_BACKOFF_MS;
  let broken = false;
  let stopped = false;
  const opened: Connection = {
    url,
    listeners: new Set(),
    source: null,
    state: 'connecting',
    heard: new Set<string>(),
    close: () => {
      stopped = true;
      window.clearTimeout(retryTimer);
      opened.source?.close();
    },
  };

  const connect = () => {
    const current = new EventSource(url);
    opened.source = current;
    opened.heard = new Set();
    hearAll(opened);
    current.addEventListener('open', () => {
      backoff = FIRST_BACKOFF_MS;
      setState(opened, 'live');
      if (broken) for (const listener of opened.listeners) listener.onReconnected();
      broken = false;
    });
    current.addEventListener('error', () => {
      broken = true;
      setState(opened, 'reconnecting');
      if (current.readyState !== EventSource.CLOSED || stopped) return;
      // The browser gave up on this one: try again later with a new connection.
      current.close();
      retryTimer = window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    });
  };
  connect();
  return opened;
}

function subscribe(url: string, listener: Listener): Connection {
  let connection = connections.get(url);
  if (!connection) {
    connection = open(url);
    connections.set(url, connection);
  }
  connection.listeners.add(listener);
  hearAll(connection);
  return connection;
}

function unsubscribe(connection: Connection, listener: Listener): void {
  connection.listeners.delete(listener);
  if (connection.listeners.size > 0) return;
  connection.close();
  if (connections.get(connection.url) === connection) connections.delete(connection.url);
}

const supported = () => typeof EventSource !== 'undefined';

/** The portal's live updates: registers saved, notices. */
export const LIVE_UPDATES_URL = '/api/events';

/**
 * Listens to the named events of a stream (their `data` as sent) while the component is mounted,
 * over the page's shared connection to it: GET /api/events unless `url` names another. Returns how
 * the stream is doing: 'unsupported' where the browser has no EventSource (the page then shows
 * what it fetched, without live updates).
 */
export function useLiveEvents(
  names: readonly string[],
  handlers: { onEvent: (name: string, data: string) => void; onReconnected?: () => void },
  url: string = LIVE_UPDATES_URL,
): LiveState {
  const [state, setLiveState] = useState<LiveState>(() => (!supported() ? 'unsupported' : (connections.get(url)?.state ?? 'connecting')));
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const key = names.join('\n');

  useEffect(() => {
    if (!supported()) return;
    const listener: Listener = {
      names: key.split('\n'),
      onEvent: (name, data) => latest.current.onEvent(name, data),
      onState: setLiveState,
      onReconnected: () => latest.current.onReconnected?.(),
    };
    const connection = subscribe(url, listener);
    setLiveState(connection.state);
    return () => unsubscribe(connection, listener);
  }, [key, url]);

  return state;
}
