import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsId } from '../../shapes/health-key.dto';
import { IsIsoDateTime } from '../../shapes/iso-date-time';
import { ID_PATTERN } from '../../domain/health-key';

export const MAX_CLIENT_TOOLS = 500;

export class ClientToolDto {
  @ApiProperty({ pattern: ID_PATTERN.source, example: 'client_file_read' })
  @IsId()
  name: string;

  @ApiPropertyOptional({ nullable: true, maxLength: 4000, description: 'kept so the tool can still be listed while gone' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  description?: string;
}

class SessionEventDto {
  @ApiProperty({ example: 'foot-gateway' })
  @IsId()
  source: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  tenantId?: string;
}

/** Client disconnect (§7 system write, §11): the session's client tools go DOWN at SESSION. */
export class ClientDisconnectDto extends SessionEventDto {
  @ApiProperty({ type: [ClientToolDto], maxItems: MAX_CLIENT_TOOLS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CLIENT_TOOLS)
  @ValidateNested({ each: true })
  @Type(() => ClientToolDto)
  tools: ClientToolDto[];

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time', description: 'when the client left; default now' })
  @IsOptional()
  @IsIsoDateTime()
  at?: Date;
}

export class ClientReconnectDto extends SessionEventDto {
  @ApiProperty({ type: [String], maxItems: MAX_CLIENT_TOOLS, uniqueItems: true })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CLIENT_TOOLS)
  @IsId({ each: true })
  tools: string[];
}

export class SessionToolsResultView {
  @ApiProperty() sessionId: string;
  @ApiProperty({ type: [String], description: 'tools whose entry was written' }) changed: string[];
}
