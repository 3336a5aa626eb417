import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule } from '../auth/auth.module';
import { PersistenceModule } from '../persistence/persistence.module';
import { IdempotencyRecord, IdempotencyRecordSchema } from './idempotency-record.schema';
import { IdempotencyService } from './idempotency.service';
import { IdempotencyStore } from './idempotency.store';
import { MongoIdempotencyStore } from './mongo-idempotency.store';

/** Idempotency-Key records in their own collection (idempotency_keys), used by the hook (D21). */
@Module({
  imports: [AuthModule, PersistenceModule, MongooseModule.forFeature([{ name: IdempotencyRecord.name, schema: IdempotencyRecordSchema }])],
  providers: [{ provide: IdempotencyStore, useClass: MongoIdempotencyStore }, IdempotencyService],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
