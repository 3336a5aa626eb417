import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { KeyFilterInput } from '../../shapes/key-filter.input';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { IsId } from '../../shapes/health-key.dto';
import { ChangeMaintenanceDto, ChangeOccurrenceDto, EndSeriesDto, ScheduleMaintenanceDto, SkipOccurrenceDto } from './maintenance.dto';

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

@InputType('SkipMaintenanceOccurrenceInput', { description: 'One occurrence of a recurring window to skip.' })
export class SkipMaintenanceOccurrenceInput extends SkipOccurrenceDto {
  @Field(() => ID, { description: 'The series.' })
  @IsId()
  id: string;
}

@InputType('ChangeMaintenanceOccurrenceInput', { description: 'One occurrence of a recurring window to change alone.' })
export class ChangeMaintenanceOccurrenceInput extends ChangeOccurrenceDto {
  @Field(() => ID, { description: 'The series.' })
  @IsId()
  id: string;
}

@InputType('EndMaintenanceSeriesInput', { description: 'A recurring window to end.' })
export class EndMaintenanceSeriesInput extends EndSeriesDto {
  @Field(() => ID, { description: 'The series.' })
  @IsId()
  id: string;
}
