import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('TenantSettings', { description: "A tenant's settings." })
export class TenantSettingsModel {
  @Field({ description: 'The tenant (organisation).' }) tenantId: string;
  @Field(() => Int, { nullable: true, description: 'The setting; null = the default applies' }) historyLimit: number | null;
  @Field(() => Int, { description: 'The ring-buffer size writes use now: the setting or the default' }) effectiveHistoryLimit: number;
  @Field(() => Date, { nullable: true, description: 'When it was last written.' }) updatedAt: Date | null;
  @Field(() => String, { nullable: true, description: 'Who last changed the settings.' }) updatedBy: string | null;
}
