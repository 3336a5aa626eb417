import { Field, Int, ObjectType } from '@nestjs/graphql';

/** The payload of a WIDER_EVIDENCE event (P79). */
@ObjectType('WiderEvidencePayload', { description: 'Failures of one (tool, signature) crossed the wider-evidence thresholds.' })
export class WiderEvidencePayloadModel {
  @Field({ description: 'The error signature the failures share.' }) errorSignature: string;
  @Field(() => Int, { description: 'Distinct users whose calls failed so in the window.' }) distinctUsers: number;
  @Field(() => Int, { description: 'Distinct projects among them.' }) distinctProjects: number;
  @Field({ description: 'The start of the window counted.' }) since: Date;
  @Field({ description: 'The diagnosis queue key naming the wider scope' }) coalescingKey: string;
}
