import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One scope's presence list (P81): the tool names that have (or once had) a tool_health
 * document in that (scope, scopeId). `_id` is the encoded scope prefix (`scopePrefix`), so the
 * manifest read fetches the lists of a context's ≤ 5 scopes by `_id`, then only the `_id`s that
 * can exist. A list only grows: a name whose document is gone costs one id in a read, while a
 * name missing from its list would hide a problem.
 */
@Schema({ collection: 'tool_health_presence', versionKey: false, timestamps: false })
export class ToolPresenceRecord {
  @Prop({ type: String, required: true }) _id: string;
  @Prop({ type: [String], default: [] }) tools: string[];
}

// No secondary index: every query is by `_id` (the read by the context's prefixes, the
// $addToSet of a first insert).
export const ToolPresenceSchema = SchemaFactory.createForClass(ToolPresenceRecord);
