import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, ValidateNested } from 'class-validator';
import { CallContextDto } from '../../shapes/call-context.dto';
import { IsId } from '../../shapes/health-key.dto';

export const MAX_LOOKUP_TOOLS = 500;

export class BatchLookupDto {
  @ApiProperty({ type: [String], maxItems: MAX_LOOKUP_TOOLS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LOOKUP_TOOLS)
  @IsId({ each: true })
  toolNames: string[];

  @ApiPropertyOptional({ nullable: true, type: CallContextDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallContextDto)
  context?: CallContextDto;
}
