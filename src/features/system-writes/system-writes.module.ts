import { Module } from '@nestjs/common';
import { WritePathModule } from '../../write-path/write-path.module';
import { SystemWritesController } from './system-writes.controller';
import { SystemWritesResolver } from './system-writes.resolver';
import { SystemWritesService } from './system-writes.service';

/** §7 first row: the dispatcher's and the session layer's writes (REST), and an admin's (GraphQL). */
@Module({
  imports: [WritePathModule],
  controllers: [SystemWritesController],
  providers: [SystemWritesService, SystemWritesResolver],
  exports: [SystemWritesService],
})
export class SystemWritesModule {}
