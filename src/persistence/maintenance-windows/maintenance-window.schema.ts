import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { MaintenanceWindow } from '../../domain/maintenance-window';
import { Recurrence } from '../../domain/recurrence';
import type { SameKeys } from '../../domain/same-keys';
import { Scope } from '../../domain/scope';

/** Issue 16: one planned outage of one tool at one key (P75). `_id` is a random UUID. */
@Schema({ collection: 'maintenance_windows', versionKey: false, timestamps: false })
export class MaintenanceWindowRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: String, enum: Object.values(Scope), required: true }) scope: Scope;
  @Prop({ type: String, default: null }) scopeId: string | null;
  @Prop({ type: String, required: true }) toolName: string;
  @Prop({ type: Date, required: true }) from: Date;
  @Prop({ type: Date, required: true }) until: Date;
  @Prop({ type: String, required: true }) reason: string;
  @Prop({ type: String, required: true }) by: string;
  @Prop({ type: Date, required: true }) createdAt: Date;
  @Prop({ type: Date, required: true }) updatedAt: Date;
  @Prop({ type: Date, default: null }) cancelledAt: Date | null;
  @Prop({ type: String, default: null }) cancelledBy: string | null;
  @Prop({ type: Date, default: null }) startedEventAt: Date | null;
  @Prop({ type: Date, default: null }) endedEventAt: Date | null;
  /** True once the window owes no more events (ended and recorded, or cancelled before it began). */
  @Prop({ type: Boolean, required: true }) eventsDone: boolean;
  @Prop({ type: Number, required: true }) version: number;
  /** A recurring series' rule, zone, end and exceptions; absent or null on a one-off window (P190). */
  @Prop({ type: Object, default: null }) recurrence?: Recurrence | null;
  /** When a one-off window's MAINTENANCE_STARTING was written (P192). */
  @Prop({ type: Date, default: null }) warnedEventAt?: Date | null;
  /** A series' events are written up to this instant, and which of its running occurrences' events were (P192). */
  @Prop({ type: Date, default: null }) eventsThrough?: Date | null;
  @Prop({ type: [String], default: undefined }) eventMarks?: string[];
}

/**
 * The stored shape declares every stored field of the window (and eventsDone, the store's own;
 * an occurrence's series id and start are never stored): a field added to MaintenanceWindow
 * without its @Prop here, or the reverse, fails `tsc`, as the repository writes through the driver.
 */
export const STORED_WINDOW_MATCHES_DOMAIN: SameKeys<
  Exclude<keyof MaintenanceWindowRecord, '_id' | 'eventsDone'>,
  Exclude<keyof MaintenanceWindow, 'id' | 'seriesId' | 'occurrence'>
> = true;

export const MaintenanceWindowSchema = SchemaFactory.createForClass(MaintenanceWindowRecord);

// The per-instance cache read (MaintenanceService): windows not cancelled, not yet ended
// (`until > now`), starting before the lookahead horizon; P190: the `$or` branch for series
// (`recurrence` set, not ended long ago) reads the same prefix (`cancelledAt: null`).
MaintenanceWindowSchema.index({ cancelledAt: 1, until: 1 });
// The event tick (P77, P192): windows still owing an event whose start (less the warning's lead time) has come (`eventsDone: false, from <= now + lead`).
MaintenanceWindowSchema.index({ eventsDone: 1, from: 1 });
// The same tick's second branch: a series whose first occurrence was moved earlier than the series'
// `from` (`eventsDone: false, 'recurrence.overrides.from' <= now + lead`), P225.
MaintenanceWindowSchema.index({ eventsDone: 1, 'recurrence.overrides.from': 1 });
// The admin list filtered by tool (and scope, scope id), newest start first.
MaintenanceWindowSchema.index({ toolName: 1, scope: 1, scopeId: 1, from: -1 });
