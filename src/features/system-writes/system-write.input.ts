import { InputType, IntersectionType, OmitType } from '@nestjs/graphql';
import { IdField } from '../../shapes/health-key.dto';
import { MarkAvailableDto, MarkIntermittentDto, MarkUnavailableDto } from './system-write.dto';

// §7 first row, replayed by an admin: the same write path the dispatch layer uses. The inputs are
// the REST shapes (P112) but for `source`, which an admin may leave out.

@InputType({ isAbstract: true })
class AdminSource {
  @IdField('Who saw it; stored as by: "system:<source>". Default "admin:<key name>".', { optional: true })
  source?: string | null;
}

@InputType('MarkUnavailableInput', { description: 'The entry to mark DOWN and what was seen.' })
export class MarkUnavailableInput extends IntersectionType(OmitType(MarkUnavailableDto, ['source'] as const), AdminSource, InputType) {}

@InputType('MarkIntermittentInput', { description: 'The entry to mark DEGRADED and what was seen.' })
export class MarkIntermittentInput extends IntersectionType(OmitType(MarkIntermittentDto, ['source'] as const), AdminSource, InputType) {}

@InputType('MarkAvailableInput', { description: 'The entry to mark OK again.' })
export class MarkAvailableInput extends IntersectionType(OmitType(MarkAvailableDto, ['source'] as const), AdminSource, InputType) {}
