import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('TenantSettings', { description: "A tenant's tuning (§10, D12)." })
export class TenantSettingsModel {
  @Field() tenantId: string;
  @Field(() => Int, { nullable: true, description: 'the setting; null = the default applies' }) historyLimit: number | null;
  @Field(() => Int, { description: 'the ring-buffer size writes use now: the setting or the default' }) effectiveHistoryLimit: number;
  @Field(() => Date, { nullable: true }) updatedAt: Date | null;
  @Field(() => String, { nullable: true }) updatedBy: string | null;
}
