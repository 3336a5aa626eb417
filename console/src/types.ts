import type {
  ConsoleToolQuery,
  ConsoleViewerQuery,
  EntryFieldsFragment,
  EventFieldsFragment,
  Scope,
  WindowFieldsFragment,
} from './graphql/generated';

// The answers the views read are the generated types of the fields they asked for
// (console/src/graphql/operations.graphql): a field read that was not asked for is a type error.

export type { Scope };
export const SCOPES: Scope[] = ['GLOBAL', 'TENANT', 'PROJECT', 'USER', 'SESSION'];

/** A stored entry as the board and the tool view ask for it; the tool view adds its history. */
export type Entry = EntryFieldsFragment & { history?: HistoryItem[] };
export type Cooldown = EntryFieldsFragment['cooldowns'][number];
export type HistoryItem = NonNullable<ConsoleToolQuery['toolHealth']>['history'][number];
export type MaintenanceWindow = WindowFieldsFragment;
/** One occurrence of a series at its own times; `occurrence` is the start its rule gives it. */
export type Occurrence = WindowFieldsFragment['occurrencesAhead'][number];
export type HealthEvent = EventFieldsFragment;
export type Viewer = ConsoleViewerQuery['viewer'];

/** An entry's key, as the Tool view and the actions take it. */
export interface EntryKey {
  toolName: string;
  scope: Scope;
  scopeId: string | null;
}
