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
registerEnumType(HealthEventType, {
  name: 'HealthEventType',
  description: 'What an event records.',
  valuesMap: {
    STATUS_CHANGED: { description: "The entry's status changed." },
    COOLDOWN_SET: { description: 'A cooldown was set, renewed, or its end or class changed.' },
    COOLDOWN_EXPIRED: { description: 'A cooldown was ended early (a success or a working verdict disproved it).' },
    INBOX_ITEM: { description: 'A diagnosis note for a user, or for everyone.' },
    PIN_SET: { description: 'An admin pin was set or changed.' },
    PIN_CLEARED: { description: 'An admin pin was removed before its end.' },
    PIN_ENDED: { description: 'A pin ran out by itself; the stored status applies again.' },
    DELETED: { description: 'The entry was deleted for good by an admin.' },
    MAINTENANCE_STARTED: { description: 'A maintenance window began.' },
    MAINTENANCE_ENDED: { description: 'A maintenance window ended, or was cancelled while in force.' },
    MAINTENANCE_STARTING: {
      description: 'A maintenance window (or an occurrence of a recurring one) starts within MAINTENANCE_WARNING_LEAD_MINUTES.',
    },
    WIDER_EVIDENCE: { description: 'Failures of one tool and error crossed the thresholds for wider evidence.' },
    WEBHOOK_ENDPOINT_DISABLED: { description: 'A webhook endpoint whose deliveries failed for 24 hours was disabled (it names no tool).' },
    SIGNAL_STARTED: {
      description: "A tool's recent calls started failing often or being slow compared with its usual: evidence, the status is unchanged.",
    },
    SIGNAL_ENDED: { description: 'That signal ended: the recent calls are back near the usual, or too few to tell.' },
  },
});
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
