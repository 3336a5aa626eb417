/** Every operation the console runs: the public GraphQL API only (D26). */

export const ENTRY_FIELDS = `
  id toolName scope scopeId tenantId status since updatedAt expectedRecoveryAt lastFailureAt lastCheckedAt code
  pin { status reason by at until }
  lastDiagnosis { at by classification code note }
  cooldowns { errorSignature userId hits windowMs nextSpawnAllowedAt lastTriggeredAt lastClassification }`;

export const VIEWER = `query ConsoleViewer { viewer { name roles canWrite } }`;

export const ENTRIES = `query ConsoleEntries($after: String) {
  toolHealths(first: 500, after: $after) { edges { node { ${ENTRY_FIELDS} } } pageInfo { hasNextPage endCursor } }
}`;

export const ENTRY_BY_ID = `query ConsoleEntry($id: ID!) { node(id: $id) { ... on ToolHealth { ${ENTRY_FIELDS} } } }`;

export const WINDOW_FIELDS = `id toolName scope scopeId from until reason by phase createdAt updatedAt cancelledAt cancelledBy recurrence { rrule timeZone } current { occurrence from until reason } occurrencesAhead { occurrence from until reason }`;

export const WINDOWS = `query ConsoleWindows($filter: MaintenanceWindowsFilter) { maintenanceWindows(filter: $filter) { ${WINDOW_FIELDS} } }`;

export const EVENT_FIELDS = `id docId type toolName scope scopeId status effectiveStatus tenantId at
  payload {
    __typename
    ... on StatusChangedPayload { previousStatus code expectedRecoveryAt }
    ... on CooldownPayload { errorSignature userId windowMs nextSpawnAllowedAt }
    ... on PinPayload { pinnedStatus reason by until }
    ... on MaintenancePayload { windowId from until reason by }
    ... on DeletedPayload { deletedStatus: previousStatus by }
  }`;

export const LIVE = `subscription ConsoleLive { toolHealthChanged { ${EVENT_FIELDS} } }`;

export const LAST_EVENTS = `query ConsoleEvents($last: Int, $docId: String) { healthEvents(last: $last, docId: $docId) { edges { node { ${EVENT_FIELDS} } } } }`;

export const TOOL_ENTRY = `query ConsoleTool($toolName: String!, $scope: Scope!, $scopeId: String) {
  toolHealth(toolName: $toolName, scope: $scope, scopeId: $scopeId) {
    ${ENTRY_FIELDS}
    history { at by status code classification note recoveryAt }
  }
}`;

export const TOOL_ENTRIES = `query ConsoleToolEntries($toolName: String!) {
  toolHealths(first: 500, filter: { toolName: $toolName }) { edges { node { id scope scopeId status } } }
}`;

export const CALLER = `query ConsoleCaller($toolName: String!, $description: String, $context: CallContextInput, $timeZone: String, $errorSignature: String!) {
  annotatedTool(toolName: $toolName, description: $description, context: $context, timeZone: $timeZone) {
    name description suffix status retesting doNotCall hint
    reason { reason why matched { scope scopeId since until by code pinned } shadowed { scope scopeId status } }
  }
  effectiveHealth(toolName: $toolName, context: $context) {
    considered { scope scopeId status retesting pinned }
    backAt blocked
    maintenance { inForce { ${WINDOW_FIELDS} } upcoming { ${WINDOW_FIELDS} } }
  }
  failureCheck(toolName: $toolName, context: $context, errorSignature: $errorSignature) { spawn reason retryAt why }
}`;

const KEY_VARS = `$toolName: String!, $scope: Scope!, $scopeId: String`;
const KEY_ARGS = `toolName: $toolName, scope: $scope, scopeId: $scopeId`;

export const MARK_AVAILABLE = `mutation ConsoleMarkAvailable(${KEY_VARS}, $note: String) {
  markToolAvailable(input: { ${KEY_ARGS}, note: $note }) { id status }
}`;
export const CLEAR = `mutation ConsoleClear(${KEY_VARS}, $note: String) {
  clearToolHealth(input: { ${KEY_ARGS}, note: $note }) { id status }
}`;
export const PIN = `mutation ConsolePin(${KEY_VARS}, $status: PinStatus!, $reason: String!, $until: DateTime!) {
  pinToolHealth(input: { ${KEY_ARGS}, status: $status, reason: $reason, until: $until }) { id status pin { status until reason } }
}`;
export const UNPIN = `mutation ConsoleUnpin(${KEY_VARS}) { unpinToolHealth(input: { ${KEY_ARGS} }) { id status } }`;
export const COOLDOWN_WINDOW = `mutation ConsoleCooldownWindow(${KEY_VARS}, $errorSignature: String!, $userId: String, $windowMs: Float!) {
  changeCooldownWindow(input: { ${KEY_ARGS}, errorSignature: $errorSignature, userId: $userId, windowMs: $windowMs }) {
    id cooldowns { errorSignature userId windowMs nextSpawnAllowedAt }
  }
}`;
export const SCHEDULE = `mutation ConsoleSchedule($input: ScheduleMaintenanceInput!) { scheduleMaintenance(input: $input) { ${WINDOW_FIELDS} } }`;
export const CHANGE_WINDOW = `mutation ConsoleChangeWindow($input: ChangeMaintenanceInput!) { changeMaintenance(input: $input) { ${WINDOW_FIELDS} } }`;
export const SKIP_OCCURRENCE = `mutation ConsoleSkipOccurrence($id: ID!, $occurrence: DateTime!) { skipMaintenanceOccurrence(input: { id: $id, occurrence: $occurrence }) { ${WINDOW_FIELDS} } }`;
export const CHANGE_OCCURRENCE = `mutation ConsoleChangeOccurrence($input: ChangeMaintenanceOccurrenceInput!) { changeMaintenanceOccurrence(input: $input) { ${WINDOW_FIELDS} } }`;
export const CANCEL_WINDOW = `mutation ConsoleCancelWindow($id: ID!) { cancelMaintenance(id: $id) { ${WINDOW_FIELDS} } }`;
