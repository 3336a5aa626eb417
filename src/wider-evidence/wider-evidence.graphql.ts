import { Field, Int, ObjectType } from '@nestjs/graphql';

/** The payload of a WIDER_EVIDENCE event (P79). */
@ObjectType('WiderEvidencePayload', { description: 'Failures of one (tool, signature) crossed the wider-evidence thresholds.' })
export class WiderEvidencePayloadModel {
  @Field() errorSignature: string;
  @Field(() => Int) distinctUsers: number;
  @Field(() => Int) distinctProjects: number;
  @Field() since: Date;
  @Field({ description: 'the diagnosis queue key naming the wider scope' }) coalescingKey: string;
}
