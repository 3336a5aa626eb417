import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { dtoJsonSchema } from '../../shapes/dto-json-schema';
import { FailureOutcomeView, FailureReportDto, SuccessOutcomeView, SuccessReportDto } from './outcome.dto';

/** At most this many reports in one batch (D22). */
export const MAX_BATCH_OUTCOMES = 500;

export enum OutcomeKind {
  SUCCESS = 'success',
  FAILURE = 'failure',
}

/** One success in a batch: the body of `POST /v1/outcomes/success` plus `outcome: "success"`. */
export class BatchedSuccessReportDto extends SuccessReportDto {
  @ApiProperty({ enum: [OutcomeKind.SUCCESS], description: 'Which report this is: a call that worked.' })
  @IsIn([OutcomeKind.SUCCESS])
  outcome: OutcomeKind.SUCCESS;
}

/** One failure in a batch: the body of `POST /v1/outcomes/failure` plus `outcome: "failure"`. */
export class BatchedFailureReportDto extends FailureReportDto {
  @ApiProperty({ enum: [OutcomeKind.FAILURE], description: 'Which report this is: a call that failed.' })
  @IsIn([OutcomeKind.FAILURE])
  outcome: OutcomeKind.FAILURE;
}

export type BatchedReport = BatchedSuccessReportDto | BatchedFailureReportDto;

@ApiExtraModels(BatchedSuccessReportDto, BatchedFailureReportDto)
export class OutcomeBatchDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: MAX_BATCH_OUTCOMES,
    description:
      'The reports, answered in this order and applied in this order: a report reads what the reports before it in the batch wrote. Each is the body of its single route plus `outcome`.',
    items: {
      oneOf: [{ $ref: getSchemaPath(BatchedSuccessReportDto) }, { $ref: getSchemaPath(BatchedFailureReportDto) }],
      discriminator: {
        propertyName: 'outcome',
        mapping: {
          [OutcomeKind.SUCCESS]: getSchemaPath(BatchedSuccessReportDto),
          [OutcomeKind.FAILURE]: getSchemaPath(BatchedFailureReportDto),
        },
      },
    },
  })
  items: BatchedReport[];
}

/** The error answer of one item, as its single route would have answered it (ErrorBody). */
const ITEM_ERROR = { allOf: [{ $ref: '#/components/schemas/ErrorBody' }] };

export class OutcomeBatchItemView {
  @ApiProperty({
    type: 'integer',
    example: 200,
    description: "The HTTP status this report's single route would have answered: 200, or the error's (400 naming the field, 409, 503).",
  })
  status: number;
  @ApiPropertyOptional({ type: SuccessOutcomeView, description: 'A success that was applied: what POST /v1/outcomes/success answers.' })
  success?: SuccessOutcomeView;
  @ApiPropertyOptional({ type: FailureOutcomeView, description: 'A failure that was applied: what POST /v1/outcomes/failure answers.' })
  failure?: FailureOutcomeView;
  @ApiPropertyOptional({
    ...ITEM_ERROR,
    description: 'A report that was refused (nothing of it was applied), as its single route would have refused it.',
  })
  error?: Record<string, unknown>;
}

export class OutcomeBatchView {
  @ApiProperty({ type: [OutcomeBatchItemView], description: 'One answer per report, in the order of the reports.' })
  results: OutcomeBatchItemView[];
}

// The envelope is checked by its own schema (the array and its size); each item by the compiled
// schema of its single route's body (dtoJsonSchema of the classes above, P80), so an item is
// refused with the very message its single route would give, its field prefixed by its place.
export const OUTCOME_BATCH_SCHEMA = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  // An item of any JSON type passes here: a bad item is refused alone, in its own answer (D22).
  properties: { items: { type: 'array', minItems: 1, maxItems: MAX_BATCH_OUTCOMES } },
};
const SUCCESS_ITEM = dtoJsonSchema(BatchedSuccessReportDto);
const FAILURE_ITEM = dtoJsonSchema(BatchedFailureReportDto);
export const BATCHED_SUCCESS_SCHEMA = SUCCESS_ITEM.schema;
export const BATCHED_FAILURE_SCHEMA = FAILURE_ITEM.schema;
export const BATCH_PATTERN_MESSAGES: ReadonlyMap<string, string> = new Map([
  ...SUCCESS_ITEM.patternMessages,
  ...FAILURE_ITEM.patternMessages,
]);
