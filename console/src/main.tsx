import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, gql, storeKey, storedKey, subscriptionClient } from './api';
import { CalendarView } from './calendar';
import { CallerView } from './caller';
import { NowView } from './now';
import { ENTRIES, ENTRY_BY_ID, LIVE, VIEWER, WINDOWS } from './queries';
import { ToolView } from './tool';
import { useToolSignals } from './stats';
import type { ConsoleEntriesQuery, ConsoleEntryQuery, ConsoleLiveSubscription } from './graphql/generated';
import type { Entry, EntryKey, HealthEvent, MaintenanceWindow, Viewer } from './types';
import { ErrorNote, ROLE_TEXT } from './ui';

/** The node an event's docId names, when it is a tool entry (another kind of node, none today, reads as none). */
function isEntry(node: ConsoleEntryQuery['node']): node is Entry {
  return node !== null && 'toolName' in node;
}

const TABS = [
  { id: 'now', label: 'Now' },
  { id: 'tool', label: 'One tool' },
  { id: 'caller', label: 'What does this caller see' },
  { id: 'calendar', label: 'Maintenance calendar' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** At most this many entries are read for the Now board (pages of 500). */
const MAX_ENTRIES = 20_000;

function KeyForm({ onKey, error }: { onKey: (key: string) => void; error: unknown }) {
  const [value, setValue] = useState('');
  return (
    <section class="key-entry" aria-labelledby="key-title">
      <h2 id="key-title">Enter your API key</h2>
      <p>
        This console shows what is not OK right now, for whom and why, and lets admins act on it. It uses this service's GraphQL API with
        the key you type here; the key stays in this browser tab only (session storage) and is sent to this service only.
      </p>
      <p>{ROLE_TEXT}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) onKey(value.trim());
        }}
      >
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        <button type="submit" class="primary">
          Open the console
        </button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}

function App() {
  const [key, setKey] = useState<string | null>(storedKey());
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [keyError, setKeyError] = useState<unknown>(null);
  const [tab, setTab] = useState<Tab>('now');
  const [entries, setEntries] = useState<Map<string, Entry>>(new Map());
  const [windows, setWindows] = useState<MaintenanceWindow[]>([]);
  const [events, setEvents] = useState<HealthEvent[]>([]);
  const [loading, setLoading] = useState(false);
  const [truncated, setTruncated] = useState(false);
  const [live, setLive] = useState(false);
  /** When the live feed was last known fresh, while it is lost (null while live or before the first connection). */
  const [lostAt, setLostAt] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [selected, setSelected] = useState<EntryKey | null>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  // Issue 39: tools whose recent calls are failing often or slow, for the board's column.
  const signals = useToolSignals(viewer ? key : null);

  const signOut = useCallback(() => {
    storeKey(null);
    setKey(null);
    setViewer(null);
    setEntries(new Map());
    setWindows([]);
    setEvents([]);
  }, []);

  // Who the key is: refused → back to the key form, saying why.
  useEffect(() => {
    if (!key) return;
    let stopped = false;
    gql(key, VIEWER)
      .then((data) => {
        if (stopped) return;
        storeKey(key);
        setViewer(data.viewer);
        setKeyError(null);
      })
      .catch((error: unknown) => {
        if (stopped) return;
        const message =
          error instanceof ApiError && error.httpStatus === 401
            ? 'This key is not known to the service.'
            : error instanceof ApiError && (error.code === 'FORBIDDEN' || error.httpStatus === 403)
              ? 'This key has neither the audit-reader nor the admin role, so it cannot read the console.'
              : error instanceof Error
                ? error.message
                : String(error);
        storeKey(null);
        setKey(null);
        setKeyError(new Error(message));
      });
    return () => {
      stopped = true;
    };
  }, [key]);

  // The board takes each series at its occurrence in force or next; the calendar and the tool
  // view keep the series as it is (its rule is said from its own first occurrence).
  const nowWindows = useMemo(() => windows.flatMap(atCurrentOccurrence), [windows]);

  const reloadWindows = useCallback(async () => {
    if (!key) return;
    const data = await gql(key, WINDOWS, { filter: { first: 500 } });
    setWindows(data.maintenanceWindows);
  }, [key]);

  const reloadEntries = useCallback(async () => {
    if (!key) return;
    setLoading(true);
    performance.mark('console:entries-requested');
    try {
      const all = new Map<string, Entry>();
      let after: string | null = null;
      for (;;) {
        const data: ConsoleEntriesQuery = await gql(key, ENTRIES, { after });
        for (const edge of data.toolHealths.edges) all.set(edge.node.id, edge.node);
        if (!data.toolHealths.pageInfo.hasNextPage || all.size >= MAX_ENTRIES) {
          setTruncated(data.toolHealths.pageInfo.hasNextPage);
          break;
        }
        after = data.toolHealths.pageInfo.endCursor;
      }
      performance.mark('console:entries-fetched');
      setEntries(all);
      setLoadError(null);
    } catch (error) {
      setLoadError(error);
    } finally {
      setLoading(false);
    }
  }, [key]);

  // First load, then live: each event re-reads its one document (and the windows on maintenance events).
  useEffect(() => {
    if (!key || !viewer) return;
    void reloadEntries();
    reloadWindows().catch(setLoadError);
    let wasLost = false;
    const client = subscriptionClient(key, (connected) => {
      setLive(connected);
      setLostAt((at) => (connected ? null : (at ?? Date.now())));
      // Back after a loss: what changed meanwhile came as events nobody received, so read it all again.
      if (connected && wasLost) {
        void reloadEntries();
        reloadWindows().catch(setLoadError);
      }
      wasLost = !connected;
    });
    const pending = new Set<string>();
    const dispose = client.subscribe<ConsoleLiveSubscription>(
      { query: LIVE.toString() },
      {
        next: ({ data }) => {
          const event = data?.toolHealthChanged;
          if (!event) return;
          setEvents((list) => [event, ...list.filter((e) => e.id !== event.id)].slice(0, 200));
          if (event.type.startsWith('MAINTENANCE')) reloadWindows().catch(setLoadError);
          if (pending.has(event.docId)) return;
          pending.add(event.docId);
          gql(key, ENTRY_BY_ID, { id: event.docId })
            .then(({ node }) => {
              setEntries((old) => {
                const next = new Map(old);
                // Another kind of node (none has this id today) reads as none.
                if (isEntry(node)) next.set(node.id, node);
                else next.delete(event.docId);
                return next;
              });
            })
            .catch(setLoadError)
            .finally(() => pending.delete(event.docId));
        },
        error: (error) =>
          setLoadError(
            new Error(
              `the live feed failed: ${
                Array.isArray(error)
                  ? error.map((e: { message?: string }) => e.message).join('; ')
                  : error instanceof Error
                    ? error.message
                    : 'connection closed'
              }`,
            ),
          ),
        complete: () => undefined,
      },
    );
    return () => {
      dispose();
      void client.dispose();
    };
  }, [key, viewer, reloadEntries, reloadWindows]);

  if (!key || !viewer) {
    return (
      <>
        <header class="top">
          <h1>Tool availability — operator console</h1>
        </header>
        <main>{key ? <p role="status">Checking the key…</p> : <KeyForm onKey={setKey} error={keyError} />}</main>
      </>
    );
  }

  const open = (entryKey: EntryKey) => {
    setSelected(entryKey);
    setTab('tool');
  };
  const onTabKey = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = (index + step + TABS.length) % TABS.length;
    setTab(TABS[next].id);
    tabRefs.current[next]?.focus();
  };

  return (
    <>
      <header class="top">
        <h1>Tool availability — operator console</h1>
        <p class="who" data-testid="who">
          Key <strong>{viewer.name}</strong> ({viewer.roles.join(', ')}) —{' '}
          {viewer.canWrite ? 'admin: you can read and act.' : 'read-only: the actions need an admin key.'}{' '}
          <span class={live ? 'live on' : 'live'} role="status">
            {live ? 'live' : 'connecting…'}
          </span>{' '}
          <button type="button" onClick={signOut}>
            Forget key
          </button>
        </p>
        {lostAt !== null ? <LostBanner since={lostAt} /> : null}
        <nav role="tablist" aria-label="Views">
          {TABS.map((t, i) => (
            <button
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-controls={`panel-${t.id}`}
              aria-selected={tab === t.id}
              tabIndex={tab === t.id ? 0 : -1}
              ref={(el) => {
                tabRefs.current[i] = el;
              }}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => onTabKey(e, i)}
            >
              {t.label}
            </button>
          ))}
        </nav>
      </header>
      <ErrorNote error={loadError} />
      <main>
        <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
          {tab === 'now' && (
            <NowView
              entries={entries}
              windows={nowWindows}
              signals={signals}
              loading={loading}
              truncated={truncated}
              onOpen={open}
              onReload={reloadEntries}
            />
          )}
          {tab === 'tool' && (
            <ToolView apiKey={key} viewer={viewer} selected={selected} windows={windows} events={events} onChanged={reloadWindows} />
          )}
          {tab === 'caller' && <CallerView apiKey={key} />}
          {tab === 'calendar' && <CalendarView apiKey={key} viewer={viewer} windows={windows} onChanged={reloadWindows} />}
        </div>
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = ''; // the shell's "Loading…" line: render() adds to what is there
render(<App />, root);

/** Says plainly that the board may be stale, and since when: a small grey word was easy to miss. */
function LostBanner({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  return (
    <p class="banner-lost" role="alert" data-testid="live-lost">
      Live updates lost {seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`} ago: what you see may be stale. Reconnecting…
    </p>
  );
}

/**
 * A series is shown at its occurrence in force or next (its from/until are its first occurrence,
 * long past for an old series); a series with none left is not shown. Its id stays the series'.
 */
function atCurrentOccurrence(w: MaintenanceWindow): MaintenanceWindow[] {
  if (!w.recurrence) return [w];
  return w.current ? [{ ...w, from: w.current.from, until: w.current.until, reason: w.current.reason }] : [];
}
