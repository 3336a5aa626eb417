import { Module } from '@nestjs/common';
import { WritePathModule } from '../../write-path/write-path.module';
import { SystemWritesController } from './system-writes.controller';
import { SystemWritesService } from './system-writes.service';

@Module({
  imports: [WritePathModule],
  controllers: [SystemWritesController],
  providers: [SystemWritesService],
  exports: [SystemWritesService],
})
export class SystemWritesModule {}
