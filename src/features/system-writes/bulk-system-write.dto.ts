import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { IsId } from '../../shapes/health-key.dto';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { answerJson, arrayPart, asIs, objectPart, viewPart } from '../../shapes/answer-json';
import { MarkAvailableDto, MarkIntermittentDto, MarkUnavailableDto } from './system-write.dto';

/** At most this many tools in one bulk system write (as many as a client disconnect names) (D22). */
export const MAX_BULK_TOOLS = 500;

function ToolNamesField(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: [String],
      minItems: 1,
      maxItems: MAX_BULK_TOOLS,
      uniqueItems: true,
      items: { type: 'string', pattern: ID_PATTERN.source },
      example: ['example-tool', 'example-tool-2'],
      description: 'The tools to mark at this scope, e.g. every tool of an MCP server whose connection closed.',
    }),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_BULK_TOOLS),
    ArrayUnique(),
    IsId({ each: true }),
  );
}

// Each bulk body is its single route's body with `toolNames` instead of `toolName` (P159): the
// same fields, validators and descriptions, read off the same classes.

/** Many tools of one scope key down at once. */
export class BulkMarkUnavailableDto extends OmitType(MarkUnavailableDto, ['toolName'] as const) {
  @ToolNamesField() toolNames: string[];
}

/** Many tools of one scope key intermittent at once. */
export class BulkMarkIntermittentDto extends OmitType(MarkIntermittentDto, ['toolName'] as const) {
  @ToolNamesField() toolNames: string[];
}

/** Many tools of one scope key available again at once. */
export class BulkMarkAvailableDto extends OmitType(MarkAvailableDto, ['toolName'] as const) {
  @ToolNamesField() toolNames: string[];
}

export class BulkWriteResultView {
  @ApiProperty({ example: 'example-tool' }) toolName: string;
  @ApiProperty({
    type: 'integer',
    example: 200,
    description:
      "The status this tool's single system write would have answered: 200, or the error's (404: nothing stored to mark available; 409).",
  })
  status: number;
  @ApiPropertyOptional({ type: ToolHealthView, description: 'The entry as stored after the write (status 200).' })
  entry?: ToolHealthView;
  @ApiPropertyOptional({
    allOf: [{ $ref: '#/components/schemas/ErrorBody' }],
    description: 'Why this tool was not written, as its single route would have said.',
  })
  error?: Record<string, unknown>;
}

export class BulkSystemWriteView {
  @ApiProperty({ type: [BulkWriteResultView], description: 'One result per tool, in the order of toolNames.' })
  results: BulkWriteResultView[];
}

/**
 * The bulk answer's JSON, compiled (P353): formatting its 200 entries' instants was two thirds of
 * JSON.stringify's work on it. The error body has no declared shape of its own here: written as is.
 */
export const bulkSystemWriteJson = answerJson(
  objectPart<BulkSystemWriteView>({
    results: arrayPart(objectPart<BulkWriteResultView>({ toolName: asIs, status: asIs, entry: viewPart(ToolHealthView), error: asIs })),
  }),
);
