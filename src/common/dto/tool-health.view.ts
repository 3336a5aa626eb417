import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ToolHealthClassification } from '../../domain/classification';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';

export class DiagnosisView {
  @ApiProperty({ enum: ToolHealthClassification, enumName: 'ToolHealthClassification', nullable: true })
  classification: ToolHealthClassification | null;
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode', nullable: true }) code: ToolErrorCode | null;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
  @ApiProperty() by: string;
  @ApiProperty({ type: String, format: 'date-time' }) at: Date;
}

export class HistoryItemView extends DiagnosisView {
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) recoveryAt: Date | null;
}

export class CooldownView {
  @ApiProperty() errorSignature: string;
  @ApiProperty({ type: String, nullable: true }) userId: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) nextSpawnAllowedAt: Date;
  @ApiProperty({ type: 'integer', description: 'How many failures with this signature met the cooldown.' }) hits: number;
  @ApiProperty({ enum: ToolHealthClassification, enumName: 'ToolHealthClassification' }) lastClassification: ToolHealthClassification;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastTriggeredAt: Date | null;
  @ApiProperty({ type: 'integer', description: 'The length of the current window, in milliseconds.' }) windowMs: number;
}

export class PinView {
  @ApiProperty({ enum: [ToolStatus.OK, ToolStatus.DOWN] }) status: ToolStatus.OK | ToolStatus.DOWN;
  @ApiProperty({ type: String, format: 'date-time' }) until: Date;
  @ApiProperty() reason: string;
  @ApiProperty() by: string;
  @ApiProperty({ type: String, format: 'date-time' }) at: Date;
}

/** A stored health document as the API shows it (§5 + D3b). */
export class ToolHealthView {
  @ApiProperty({ description: 'encoded key (D3a)' }) id: string;
  @ApiProperty({ enum: Scope, enumName: 'Scope' }) scope: Scope;
  @ApiProperty({ type: String, nullable: true }) scopeId: string | null;
  @ApiProperty() toolName: string;
  @ApiProperty({ type: String, nullable: true }) tenantId: string | null;
  @ApiProperty({ enum: ToolStatus, enumName: 'ToolStatus' }) status: ToolStatus;
  @ApiProperty({ type: String, format: 'date-time' }) since: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastCheckedAt: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expectedRecoveryAt: Date | null;
  @ApiProperty({ enum: ToolErrorCode, enumName: 'ToolErrorCode', nullable: true }) code: ToolErrorCode | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastFailureAt: Date | null;
  @ApiProperty({ type: DiagnosisView, nullable: true }) lastDiagnosis: DiagnosisView | null;
  @ApiProperty({ type: [HistoryItemView] }) history: HistoryItemView[];
  @ApiProperty({ type: [CooldownView] }) cooldowns: CooldownView[];
  @ApiPropertyOptional({ type: PinView, nullable: true }) pin: PinView | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: 'integer', description: 'Grows by one with every write of the entry.' }) version: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: Date;
}
