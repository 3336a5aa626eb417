import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { KeyFilterInput } from '../../shapes/key-filter.input';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { Scope } from '../../shapes/enums.registration';
import { IsId } from '../../shapes/health-key.dto';
import { MaintenancePhase } from '../../domain/maintenance-window';
import { ChangeMaintenanceDto, ScheduleMaintenanceDto } from './maintenance.dto';

registerEnumType(MaintenancePhase, {
  name: 'MaintenancePhase',
  description: 'Where a maintenance window stands.',
  valuesMap: {
    UPCOMING: { description: 'Not started yet.' },
    IN_FORCE: { description: 'Running now: the tool reads as DOWN in its reach.' },
    ENDED: { description: 'Over.' },
    CANCELLED: { description: 'Cancelled by an admin.' },
  },
});

@ObjectType('MaintenanceWindow', { description: 'A planned outage of one tool at one key .' })
export class MaintenanceWindowModel {
  @Field(() => ID, { description: "The window's id." }) id: string;
  @Field(() => Scope, { description: 'The scope of the key the window applies to.' }) scope: Scope;
  @Field(() => String, { nullable: true, description: 'The scope id; null for GLOBAL.' }) scopeId: string | null;
  @Field({ description: 'The tool under maintenance.' }) toolName: string;
  @Field({ description: 'When the window begins.' }) from: Date;
  @Field({ description: 'When the tool is expected back.' }) until: Date;
  @Field({ description: 'Why the tool is under maintenance, in words an LLM may read.' }) reason: string;
  @Field({ description: '"admin:<key name>" of the last change' }) by: string;
  @Field(() => MaintenancePhase, { description: 'Coming, in force, over or cancelled, at the time of the answer.' })
  phase: MaintenancePhase;
  @Field({ description: 'When the window was scheduled.' }) createdAt: Date;
  @Field({ description: 'When the window last changed.' }) updatedAt: Date;
  @Field(() => Date, { nullable: true, description: 'When the window was cancelled; null when it was not.' }) cancelledAt: Date | null;
  @Field(() => String, { nullable: true, description: 'Who cancelled it; null when nobody did.' }) cancelledBy: string | null;
}

/** The payload of MAINTENANCE_STARTED / MAINTENANCE_ENDED events (P77). */
@ObjectType('MaintenancePayload', { description: 'A maintenance window began or ended.' })
export class MaintenancePayloadModel {
  @Field(() => ID, { description: 'The window.' }) windowId: string;
  @Field({ description: 'When the window begins.' }) from: Date;
  @Field({ description: 'When the tool is expected back.' }) until: Date;
  @Field({ description: 'Why the tool is under maintenance, in words an LLM may read.' }) reason: string;
  @Field({ description: 'The admin who scheduled or last changed it.' }) by: string;
  @Field(() => Date, { nullable: true, description: 'Set when the end is a cancellation' }) cancelledAt: Date | null;
}

/** The GraphQL names of the maintenance write shapes (P112); the fields come from the REST DTOs. */
@InputType('ScheduleMaintenanceInput', { description: 'A planned outage of one tool at one scope: from, until and why.' })
export class ScheduleMaintenanceInput extends ScheduleMaintenanceDto {}

@InputType('ChangeMaintenanceInput', { description: 'What to change in a window that has not ended; absent fields stay as they are.' })
export class ChangeMaintenanceInput extends ChangeMaintenanceDto {
  @Field(() => ID, { description: 'The window to change.' })
  @IsId()
  id: string;
}

@InputType('MaintenanceWindowsFilter', { description: 'Which windows to list; every field optional.' })
export class MaintenanceWindowsFilter extends KeyFilterInput {
  @Field({ defaultValue: false, description: 'also windows that ended or were cancelled' })
  @IsBoolean()
  includeEnded: boolean;

  @Field(() => Int, { defaultValue: 100, description: 'How many windows at most.' })
  @IsInt()
  @Min(1)
  @Max(500)
  first: number;
}

/** What a lookup says about maintenance: the window in force and the next one coming . */
@ObjectType('MaintenanceSummary', { description: 'What a lookup says about maintenance: the window in force and the next one coming.' })
export class MaintenanceSummaryModel {
  @Field(() => MaintenanceWindowModel, { nullable: true, description: 'The window in force now; null when none is.' })
  inForce: MaintenanceWindowModel | null;
  @Field(() => MaintenanceWindowModel, { nullable: true, description: 'The next window starting within MAINTENANCE_LOOKAHEAD_MS' })
  upcoming: MaintenanceWindowModel | null;
}
