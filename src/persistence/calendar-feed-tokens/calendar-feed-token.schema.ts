import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A calendar feed token: `_id` its id; the token itself is never stored, only its SHA-256. */
@Schema({ collection: 'calendar_feed_tokens', versionKey: false })
export class CalendarFeedTokenRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: String, required: true }) label: string;
  @Prop({ type: String, required: true }) tokenHash: string;
  @Prop({ type: Date, required: true }) createdAt: Date;
  @Prop({ type: String, required: true }) createdBy: string;
}

export const CalendarFeedTokenSchema = SchemaFactory.createForClass(CalendarFeedTokenRecord);
// Every feed request: the token's hash → its record (`{ tokenHash }`); unique, so a hash names one token.
CalendarFeedTokenSchema.index({ tokenHash: 1 }, { unique: true });
