import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The most one page of a list holds (a page is one read, so this bounds its cost). */
export const MAX_PAGE_SIZE = 500;
/** A page's size when the caller does not say. */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * The rule of every page size, REST or GraphQL: a whole number from 1 to MAX_PAGE_SIZE.
 * Applied in the order the validators would be written above a field, so 400 messages list
 * the same failures in the same order as before.
 */
export function IsPageSize(): PropertyDecorator {
  return applyDecorators(Max(MAX_PAGE_SIZE), Min(1), IsInt());
}

/** `?limit=` of a REST list: optional, a query string's text read as a number. */
export function LimitQuery(description: string): PropertyDecorator {
  return applyDecorators(
    IsPageSize(),
    Type(() => Number),
    IsOptional(),
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description }),
  );
}
