import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_FEED_TOKEN_LABEL_LENGTH } from '../../domain/calendar-feed-token';

export class CreateCalendarFeedTokenDto {
  @ApiProperty({
    description: 'What the token is for, e.g. whose calendar subscribes with it.',
    minLength: 1,
    maxLength: MAX_FEED_TOKEN_LABEL_LENGTH,
    example: 'on-call team calendar',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_FEED_TOKEN_LABEL_LENGTH)
  label: string;
}

export class CalendarFeedTokenView {
  @ApiProperty({ description: "The token's id (to revoke it)." }) id: string;
  @ApiProperty({ description: 'What the token is for.' }) label: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When it was created.' }) createdAt: Date;
  @ApiProperty({ description: '"admin:<key name>" of the admin who created it.' }) createdBy: string;
}

export class CalendarFeedTokenSecretView {
  @ApiProperty({ type: CalendarFeedTokenView }) feedToken: CalendarFeedTokenView;
  @ApiProperty({ description: 'The token, shown this once: only its hash is kept.', example: 'calfeed_3q2-7w…' }) token: string;
  @ApiProperty({
    description: 'The path a calendar app subscribes to (prefix it with the service URL): the feed, with the token in its query.',
    example: '/v1/maintenance-windows.ics?token=calfeed_3q2-7w…',
  })
  feedPath: string;
}
