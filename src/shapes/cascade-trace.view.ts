import { ApiProperty } from '@nestjs/swagger';
import { CascadeReason } from '../domain/cascade';
import { CascadeTrace } from '../domain/cascade-trace';
import { Scope } from '../domain/scope';
import { ToolErrorCode } from '../domain/tool-error-code';
import { ToolStatus } from '../domain/tool-status';

/** The entry that decided the effective status (issue 4, "which entry matched"). */
export class CascadeMatchView {
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true, description: 'null for GLOBAL' }) scopeId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "who decided: the pin's author, else lastDiagnosis.by; null when unknown" })
  by: string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'Since when the effective status holds' }) since: Date;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "the pin's end, else expectedRecoveryAt; null when not estimated",
  })
  until: Date | null;
  @ApiProperty({ description: 'an admin pin decided (D4b)' }) pinned: boolean;
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode', nullable: true, description: 'the code stored with the entry (D3b)' })
  code: ToolErrorCode | null;
}

/** A wider entry the winner hid; its status as stored. */
export class ShadowedEntryView {
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
}

/** Why a tool reads as it does in this context, like a feature flag's evaluation reason. */
export class CascadeTraceView {
  @ApiProperty({ enum: CascadeReason, enumName: 'CascadeReason' }) reason: CascadeReason;
  @ApiProperty({ type: CascadeMatchView, nullable: true, description: 'Null for the default OK (no problem entry)' })
  matched: CascadeMatchView | null;
  @ApiProperty({ type: [ShadowedEntryView], description: 'wider problem or pinned entries the winner hid, narrow to wide' })
  shadowed: ShadowedEntryView[];
  @ApiProperty({
    type: [String],
    description: "D20: the call evaluation's steps in words — its reach (bounded by a pin), what governs it, maintenance in reach, back-at",
  })
  why: string[];
}

/** The domain trace already has the view's shape; this names the conversion. */
export function toCascadeTraceView(trace: CascadeTrace): CascadeTraceView {
  return trace;
}
