/**
 * The REST operations that write, each of which accepts an Idempotency-Key (D21). The hook decides
 * at run time by route (write-requests.ts); this list is for the OpenAPI document, and
 * test/idempotency.e2e-spec.ts checks that it names exactly the served write operations (which
 * also catches a misspelt operationId: the list cannot import OperationId without an import circle).
 */
export const IDEMPOTENT_OPERATIONS = [
  'markToolUnavailable',
  'markToolIntermittent',
  'markToolAvailable',
  'markToolsUnavailable',
  'markToolsIntermittent',
  'markToolsAvailable',
  'reportClientDisconnected',
  'reportClientReconnected',
  'setTenantHistoryLimit',
  'reportSuccess',
  'reportFailure',
  'reportOutcomes',
  'setCooldown',
  'changeCooldownWindow',
  'clearCooldown',
  'sweepCooldowns',
  'recordDiagnosis',
  'invokeAgrajagTool',
  'scheduleMaintenance',
  'changeMaintenance',
  'cancelMaintenance',
  'skipMaintenanceOccurrence',
  'changeMaintenanceOccurrence',
  'endMaintenanceSeries',
  'createCalendarFeedToken',
  'revokeCalendarFeedToken',
  'createWebhookEndpoint',
  'changeWebhookEndpoint',
  'deleteWebhookEndpoint',
  'rotateWebhookSecret',
  'pingWebhookEndpoint',
  'resendWebhookDelivery',
] as const;
