import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/persistence.module';
import { WritePathModule } from '../../write-path/write-path.module';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { HostResolver, SystemHostResolver, WebhookSender } from './webhook-sender';
import { WebhookDeliveriesController, WebhookEndpointsController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

/** Signed webhooks — endpoints (admin), deliveries from the outbox (the dispatcher), the audit log (D24). */
@Module({
  imports: [PersistenceModule, WritePathModule],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [WebhooksService, WebhooksResolver, WebhookDispatcher, WebhookSender, { provide: HostResolver, useClass: SystemHostResolver }],
  exports: [WebhookDispatcher],
})
export class WebhooksModule {}
