import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ID_MESSAGE } from '../../common/dto/health-key.dto';
import { IsIsoDateTime } from '../../common/dto/iso-date-time';
import { ID_PATTERN } from '../../domain/health-key';

export const MAX_CLIENT_TOOLS = 500;

export class ClientToolDto {
  @ApiProperty({ pattern: ID_PATTERN.source, example: 'client_file_read' })
  @Matches(ID_PATTERN, { message: `name ${ID_MESSAGE}` })
  name: string;

  @ApiPropertyOptional({ nullable: true, maxLength: 4000, description: 'kept so the tool can still be listed while gone (D15b)' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  description?: string;
}

class SessionEventDto {
  @ApiProperty({ example: 'foot-gateway' })
  @Matches(ID_PATTERN, { message: `source ${ID_MESSAGE}` })
  source: string;

  @ApiPropertyOptional({ nullable: true, pattern: ID_PATTERN.source })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `tenantId ${ID_MESSAGE}` })
  tenantId?: string;
}

/** Foot disconnect (session-lifecycle §8): the session's client tools go DOWN at SESSION. */
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
  @ApiProperty({ type: [String], maxItems: MAX_CLIENT_TOOLS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CLIENT_TOOLS)
  @Matches(ID_PATTERN, { each: true, message: `tools ${ID_MESSAGE}` })
  tools: string[];
}

export class SessionToolsResultView {
  @ApiProperty() sessionId: string;
  @ApiProperty({ type: [String], description: 'tools whose entry was written' }) changed: string[];
}
