/**
 * Every operation the console sends, under the names the views import: the documents generated
 * from console/src/graphql/operations.graphql (the public GraphQL API only, D26).
 */
export {
  ConsoleViewerDocument as VIEWER,
  ConsoleEntriesDocument as ENTRIES,
  ConsoleEntryDocument as ENTRY_BY_ID,
  ConsoleWindowsDocument as WINDOWS,
  ConsoleLiveDocument as LIVE,
  ConsoleEventsDocument as LAST_EVENTS,
  ConsoleToolDocument as TOOL_ENTRY,
  ConsoleToolEntriesDocument as TOOL_ENTRIES,
  ConsoleCallerDocument as CALLER,
  ConsoleToolStatsDocument as TOOL_STATS,
  ConsoleToolSignalsDocument as TOOL_SIGNALS,
  ConsoleMarkAvailableDocument as MARK_AVAILABLE,
  ConsoleClearDocument as CLEAR,
  ConsolePinDocument as PIN,
  ConsoleUnpinDocument as UNPIN,
  ConsoleCooldownWindowDocument as COOLDOWN_WINDOW,
  ConsoleScheduleDocument as SCHEDULE,
  ConsoleChangeWindowDocument as CHANGE_WINDOW,
  ConsoleSkipOccurrenceDocument as SKIP_OCCURRENCE,
  ConsoleChangeOccurrenceDocument as CHANGE_OCCURRENCE,
  ConsoleCancelWindowDocument as CANCEL_WINDOW,
} from './graphql/generated';
