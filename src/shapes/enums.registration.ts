import { registerEnumType } from '@nestjs/graphql';
import { CascadeReason } from '../domain/cascade';
import { ToolHealthClassification } from '../domain/classification';
import { FailureReason } from '../domain/failure-check';
import { HealthEventType } from '../domain/health-events';
import { Scope } from '../domain/scope';
import { ToolErrorCode } from '../domain/tool-error-code';
import { ToolStatus } from '../domain/tool-status';
import { SignalKind } from '../domain/tool-signals';

/** The statuses a pin can hold (a subset of ToolStatus, same values) (D4b). */
export const PinStatus = { OK: ToolStatus.OK, DOWN: ToolStatus.DOWN } as const;
export type PinStatus = (typeof PinStatus)[keyof typeof PinStatus];

// The enums live in the pure domain (no @nestjs there); GraphQL learns them here, once.
registerEnumType(Scope, {
  name: 'Scope',
  description: 'Who a health entry affects, narrow to wide: SESSION, USER, PROJECT, TENANT, GLOBAL.',
  valuesMap: {
    SESSION: { description: 'One conversation (session) of one user.' },
    USER: { description: 'One user, in every session.' },
    PROJECT: { description: 'One project, for all its users.' },
    TENANT: { description: 'One tenant (organisation), for all its projects.' },
    GLOBAL: { description: 'Everyone; the entry has no scope id.' },
  },
});
registerEnumType(ToolStatus, {
  name: 'ToolStatus',
  description: 'Whether the tool is usable: OK, DEGRADED (works now and then) or DOWN.',
  valuesMap: {
    OK: { description: 'Usable; nothing known against it.' },
    DEGRADED: { description: 'Works now and then: calls may fail.' },
    DOWN: { description: 'Not usable until it recovers or is probed again.' },
  },
});
registerEnumType(ToolErrorCode, {
  name: 'ToolErrorCode',
  description: "What the dispatch saw when a call failed. NOT_REGISTERED and DISALLOWED are not the tool's fault.",
  valuesMap: {
    NOT_REGISTERED: { description: "No tool of that name is registered: not the tool's fault." },
    BACKEND_UNREACHABLE: { description: "The tool's backend could not be reached." },
    BACKEND_FAILED: { description: "The tool's backend answered with a failure." },
    DISALLOWED: { description: "The caller may not use the tool: not the tool's fault." },
  },
});
registerEnumType(ToolHealthClassification, {
  name: 'ToolHealthClassification',
  description: 'What kind of failure a diagnosis found, or WORKING.',
  valuesMap: {
    USER_PERMISSION: { description: 'The user lacks a right (e.g. a 403): a cooldown for that user only.' },
    USER_INPUT: { description: 'The call was wrong (bad arguments): a short cooldown for that user only.' },
    USER_SPECIFIC_TECHNICAL: { description: 'Broken for one user only (e.g. an expired token): DOWN for that user.' },
    INTERMITTENT: { description: 'Fails now and then: DEGRADED.' },
    TECHNICALLY_BROKEN: { description: 'Broken for everyone at the scope: DOWN.' },
    WORKING: { description: 'The tool works: OK, and technical cooldowns end.' },
  },
});
registerEnumType(CascadeReason, {
  name: 'CascadeReason',
  description: 'Why a tool reads as it does in a context: which entry or pin decided, or nothing known.',
  valuesMap: {
    DEFAULT_OK: { description: 'No problem is known in the context: OK.' },
    LIVE_PROBLEM: { description: 'The narrowest DEGRADED or DOWN entry that is not being retested decided.' },
    PINNED: { description: "An admin's pin decided." },
    RETESTING: {
      description: 'Every problem entry is past its expected recovery: the narrowest of those decided, and the tool may be tried.',
    },
    MAINTENANCE: { description: 'A maintenance window in force decided.' },
  },
});
// HealthEventType is registered by the event catalogue (src/features/events/event-catalogue.ts), each value described by its row.
registerEnumType(SignalKind, {
  name: 'SignalKind',
  description: 'A signal from the outcomes of recent calls.',
  valuesMap: {
    FAILING_OFTEN: { description: 'The recent success rate is well below the usual one.' },
    SLOW: { description: 'Recent calls take far longer than usual (95th percentiles).' },
  },
});
registerEnumType(FailureReason, {
  name: 'FailureReason',
  description: 'Why a failure report does or does not spawn a diagnosis.',
  valuesMap: {
    NOT_A_TOOL_FAULT: { description: "The error says nothing about the tool's health (NOT_REGISTERED, DISALLOWED)." },
    IN_COOLDOWN: { description: 'A matching cooldown is running: the error goes back to the LLM, no new diagnosis.' },
    KNOWN_DOWN: { description: 'The tool is known DOWN for this caller (and not being retested).' },
    CLASSIFIED_BY_CHECKER: { description: 'The synchronous checker already classified the error.' },
    ELIGIBLE: { description: 'Nothing blocks a diagnosis: one would be spawned.' },
    UNDER_MAINTENANCE: { description: "A maintenance window in force lies in the call's reach: nothing is counted." },
  },
});
registerEnumType(PinStatus, {
  name: 'PinStatus',
  description: 'The statuses an admin can pin an entry to.',
  valuesMap: { OK: { description: 'Held usable whatever wider entries say.' }, DOWN: { description: 'Held unusable.' } },
});

export { CascadeReason, FailureReason, HealthEventType, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus };
