import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationId } from '../errors/openapi-errors';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/** Each tag the controllers use (@ApiTags), declared at the top level with what it groups (P143). */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'dispatcher', description: 'The hot path: report every call outcome and learn whether to spawn a diagnosis.' },
  { name: 'manifest', description: 'Annotate the tool list an LLM sees this turn, and explain an unusable tool honestly.' },
  { name: 'lookups', description: 'The effective status of a tool for a caller (the scope cascade), and the stored entries.' },
  {
    name: 'system writes',
    description: "The dispatcher's own status writes: a tool marked down, intermittent or back, a client's tools leaving with it.",
  },
  { name: 'diagnosis (Agrajag)', description: "The diagnosis engine's verdicts: recordDiagnosis and the four role-gated Agrajag tools." },
  { name: 'cooldowns', description: 'Cooldowns per error signature, their repair, and the DOWN entries due for a probe.' },
  { name: 'maintenance', description: 'Planned outages: a window makes a tool read DOWN until its end, and the LLM plans around it.' },
  { name: 'webhooks', description: 'Signed webhooks (Standard Webhooks): endpoints, their deliveries and attempts, resend and ping.' },
  { name: 'events', description: 'The outbox of status changes, cooldowns and inbox items, read in order with a cursor.' },
  { name: 'tenant settings', description: "A tenant's settings (the history limit)." },
  { name: 'ops', description: 'Prometheus metrics.' },
  { name: 'probes', description: "An orchestrator's liveness and readiness probes; open without a key." },
];

/** What the success answer of each operation holds (P143): the status is 200 unless noted. */
export const SUCCESS_DESCRIPTION: Record<OperationId, string> = {
  checkLiveness: 'The process runs.',
  checkReadiness: 'The database answers: the instance takes traffic.',
  markToolUnavailable: 'The entry as stored after the write.',
  markToolIntermittent: 'The entry as stored after the write.',
  markToolAvailable: 'The entry as stored after the write.',
  markToolsUnavailable: 'One result per tool, in the order sent: the entry as stored after the write.',
  markToolsIntermittent: 'One result per tool, in the order sent: the entry as stored after the write.',
  markToolsAvailable:
    'One result per tool, in the order sent: the entry as stored after the write, or status 404 when nothing was stored for it.',
  reportClientDisconnected: "The client's tools, each DOWN at the session.",
  reportClientReconnected: "The client's tools, each OK again at the session.",
  getHealthEntry: 'The stored entry: status, last diagnosis, history, cooldowns, pin.',
  lookupAvailability: 'The effective status for this caller, the entry that decided it, and the trace of the cascade.',
  lookupAvailabilityBatch: 'One effective status per tool, in the order asked.',
  getToolStats:
    'The last hour and the last 24 hours of calls (success rate, failures by code, latency percentiles), and the signals on now.',
  getToolUptime: 'One entry per UTC day, oldest first: usable, down, maintenance and unknown shares of the day, and its calls.',
  getTenantSettings: "The tenant's settings and the history limit writes use now.",
  setTenantHistoryLimit: "The tenant's settings after the change.",
  reportSuccess: 'The effective status after the success, and the entries it cleared (none: nothing was written).',
  reportFailure:
    'Whether to spawn a diagnosis and why, whether to reflect the error to the LLM and until when, the cooldown that decided, the effective status, and any wider evidence.',
  reportOutcomes:
    "One answer per report, in the order sent: status 200 with what the report's single route answers, or the error status and body it would have answered.",
  setCooldown: 'The entry as stored, with the cooldown set.',
  changeCooldownWindow: 'The entry as stored, with the cooldown on its new window.',
  clearCooldown: 'The entry as stored, without the cooldown.',
  sweepCooldowns: 'How many expired cooldowns were deleted.',
  listToolsDueForProbe: 'The DOWN entries without an expected recovery that no one checked for a while, oldest check first.',
  recordDiagnosis: 'The entry as stored after the verdict.',
  listAgrajagTools: 'The four Agrajag tools with their argument schemas and markers.',
  invokeAgrajagTool: 'What the tool did, in words for the model, and the entry as stored after it.',
  readEvents: 'The next events after the cursor, oldest first, and the cursor to read on from.',
  annotateManifest: 'The visible tools in input order with their suffixes and hints, the departed client tools, and what was filtered.',
  annotateManifestChanges:
    'The visible tools that are not plainly usable, each as annotateManifest lists it, in input order; how many were plain; the departed client tools; what was filtered.',
  explainTool: 'The error code to report and the message for the LLM.',
  scrapeMetrics: 'The metrics in the Prometheus text exposition format 0.0.4.',
  scheduleMaintenance: 'The window as scheduled (201 Created).',
  listMaintenanceWindows: 'The windows that match, by start.',
  changeMaintenance: 'The window after the change.',
  cancelMaintenance: 'The cancelled window.',
  skipMaintenanceOccurrence: 'The series, with the occurrence in its skipped list.',
  changeMaintenanceOccurrence: 'The series, with the occurrence among its overrides.',
  endMaintenanceSeries: 'The series with its end.',
  maintenanceCalendar: 'An RFC 5545 calendar (text/calendar).',
  createCalendarFeedToken: 'The token and the feed path, shown this once (201 Created).',
  listCalendarFeedTokens: 'The tokens, oldest first, without the tokens themselves.',
  revokeCalendarFeedToken: 'The id of the token revoked.',
  createWebhookEndpoint: 'The endpoint and its signing secret, shown this once (201 Created).',
  listWebhookEndpoints: 'The endpoints, oldest first.',
  getWebhookEndpoint: 'The endpoint.',
  changeWebhookEndpoint: 'The endpoint after the change.',
  deleteWebhookEndpoint: 'The endpoint removed.',
  rotateWebhookSecret: 'The endpoint and its new signing secret, shown this once.',
  pingWebhookEndpoint: 'The ping delivery with its attempt.',
  listWebhookDeliveries: 'The deliveries, newest first.',
  resendWebhookDelivery: 'The delivery with the new attempt.',
};

/** Real answers (as the service sends them for the operation's own example request), by operationId. */
export const SUCCESS_EXAMPLE: Partial<Record<OperationId, unknown>> = {
  reportSuccess: { status: 'OK', changed: [] },
  checkLiveness: { status: 'ok' },
  checkReadiness: { status: 'ok', database: 'up' },
  sweepCooldowns: { documents: 0, removed: 0 },
};

/**
 * Tags declared at the top level, and each operation's success answer described (and, where
 * SUCCESS_EXAMPLE has one, exemplified by a real answer instead of one Swagger UI pieces together
 * from the property examples) (P143). Mutates and returns the document.
 */
export function documentOperations(document: OpenAPIObject): OpenAPIObject {
  document.tags = TAGS.map((tag) => ({ ...tag }));
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      const id = operation?.operationId as OperationId | undefined;
      if (!operation || !id || !(id in SUCCESS_DESCRIPTION)) continue;
      const status = Object.keys(operation.responses ?? {}).find((s) => s.startsWith('2'));
      const response = status
        ? (operation.responses[status] as { description?: string; content?: Record<string, { example?: unknown }> })
        : undefined;
      if (!response) continue;
      if (!response.description?.trim()) response.description = SUCCESS_DESCRIPTION[id];
      const example = SUCCESS_EXAMPLE[id];
      const json = response.content?.['application/json'];
      if (example !== undefined && json) json.example = example;
    }
  }
  return document;
}
