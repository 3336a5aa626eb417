import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';

export class SetHistoryLimitDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 1000,
    description: 'History items each entry keeps; null = back to the default.',
    example: 50,
  })
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  historyLimit: number | null;
}

export class TenantSettingsView {
  @ApiProperty() tenantId: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The stored setting; null = none (the default applies).' }) historyLimit:
    number | null;
  @ApiProperty({ type: 'integer', description: 'the limit writes use now: the setting or the default' }) effectiveHistoryLimit: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updatedAt: Date | null;
  @ApiProperty({ type: String, nullable: true }) updatedBy: string | null;
}
