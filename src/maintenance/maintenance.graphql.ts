import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IsBoolean, IsDate, IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { HealthKeyInput } from '../admin/inputs/health-key.input';
import { Scope } from '../admin/models/enums.registration';
import { IsId } from '../common/dto/health-key.dto';
import { MAX_MAINTENANCE_REASON_LENGTH, MaintenancePhase } from '../domain/maintenance-window';

registerEnumType(MaintenancePhase, { name: 'MaintenancePhase', description: 'Where a maintenance window stands (issue 16).' });

@ObjectType('MaintenanceWindow', { description: 'A planned outage of one tool at one key (issue 16).' })
export class MaintenanceWindowModel {
  @Field(() => ID) id: string;
  @Field(() => Scope) scope: Scope;
  @Field(() => String, { nullable: true }) scopeId: string | null;
  @Field() toolName: string;
  @Field() from: Date;
  @Field() until: Date;
  @Field() reason: string;
  @Field({ description: '"admin:<key name>" of the last change' }) by: string;
  @Field(() => MaintenancePhase) phase: MaintenancePhase;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
  @Field(() => Date, { nullable: true }) cancelledAt: Date | null;
  @Field(() => String, { nullable: true }) cancelledBy: string | null;
}

/** The payload of MAINTENANCE_STARTED / MAINTENANCE_ENDED events (P77). */
@ObjectType('MaintenancePayload', { description: 'A maintenance window began or ended.' })
export class MaintenancePayloadModel {
  @Field(() => ID) windowId: string;
  @Field() from: Date;
  @Field() until: Date;
  @Field() reason: string;
  @Field() by: string;
  @Field(() => Date, { nullable: true, description: 'set when the end is a cancellation' }) cancelledAt: Date | null;
}

@InputType('ScheduleMaintenanceInput')
export class ScheduleMaintenanceInput extends HealthKeyInput {
  @Field({ description: 'when the window begins' })
  @IsDate()
  from: Date;

  @Field({ description: 'when the tool is expected back (after from, in the future, at most 31 days)' })
  @IsDate()
  until: Date;

  @Field()
  @IsString()
  @MaxLength(MAX_MAINTENANCE_REASON_LENGTH)
  reason: string;
}

@InputType('ChangeMaintenanceInput')
export class ChangeMaintenanceInput {
  @Field(() => ID)
  @IsId()
  id: string;

  @Field(() => Date, { nullable: true, description: 'only before the window began' })
  @IsOptional()
  @IsDate()
  from?: Date | null;

  @Field(() => Date, { nullable: true })
  @IsOptional()
  @IsDate()
  until?: Date | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MAINTENANCE_REASON_LENGTH)
  reason?: string | null;
}

@InputType('MaintenanceWindowsFilter')
export class MaintenanceWindowsFilter {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsId()
  toolName?: string | null;

  @Field(() => Scope, { nullable: true })
  @IsOptional()
  @IsEnum(Scope)
  scope?: Scope | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsId()
  scopeId?: string | null;

  @Field({ defaultValue: false, description: 'also windows that ended or were cancelled' })
  @IsBoolean()
  includeEnded: boolean;

  @Field(() => Int, { defaultValue: 100 })
  @IsInt()
  @Min(1)
  @Max(500)
  first: number;
}

/** What a lookup says about maintenance: the window in force and the next one coming (issue 16). */
@ObjectType('MaintenanceSummary')
export class MaintenanceSummaryModel {
  @Field(() => MaintenanceWindowModel, { nullable: true }) inForce: MaintenanceWindowModel | null;
  @Field(() => MaintenanceWindowModel, { nullable: true, description: 'the next window starting within MAINTENANCE_LOOKAHEAD_MS' }) upcoming: MaintenanceWindowModel | null;
}
