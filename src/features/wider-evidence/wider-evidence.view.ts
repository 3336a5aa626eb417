import { ApiProperty } from '@nestjs/swagger';
import { Scope } from '../../domain/scope';

/** Issue 16: the failure answer's evidence that the problem is wider than its reporter (P79). */
export class WiderEvidenceView {
  @ApiProperty({ enum: [Scope.TENANT, Scope.GLOBAL], enumName: 'WiderScope', description: 'the scope the evidence points to' }) scope:
    Scope.TENANT | Scope.GLOBAL;
  @ApiProperty({ type: String, nullable: true, description: 'the tenant for TENANT; null for GLOBAL' }) scopeId: string | null;
  @ApiProperty({ type: 'integer', description: 'distinct users with this (tool, signature) failure in the window' }) distinctUsers: number;
  @ApiProperty({ type: 'integer', description: 'distinct projects among them' }) distinctProjects: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'start of the oldest minute of the window with such a failure' })
  since: Date;
}
