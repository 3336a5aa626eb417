import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { OkAnswer } from '../../shapes/answer-written-by';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { CooldownService } from './cooldown.service';
import { ChangeCooldownWindowDto, ClearCooldownDto, SetCooldownDto, SweepResultView } from './cooldown.dto';
import { ApiContract } from '../../errors/openapi-errors';

@ApiTags('cooldowns')
@ApiSecurity('api-key')
@Controller('v1')
export class CooldownController {
  constructor(private readonly service: CooldownService) {}

  @Post('cooldowns')
  @HttpCode(200)
  @Roles(Role.DISPATCHER)
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'setCooldown',
    'Start or renew a cooldown of one error signature',
    "Stops further diagnoses of one error signature at one scope for a while, without changing the tool's status. The window is the classification's default unless durationMs is given; a repeated cooldown climbs the classification's ladder. Returns the stored entry.",
  )
  setCooldown(@Body() dto: SetCooldownDto): Promise<ToolHealthView> {
    return this.service.setCooldown(dto);
  }

  @Post('cooldowns/clear')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'clearCooldown',
    'Forget one cooldown',
    'An admin removes one cooldown entirely, its ladder included, so the next failure with that signature may spawn a diagnosis again. 404 when there is no such cooldown.',
  )
  clearCooldown(@Body() dto: ClearCooldownDto): Promise<ToolHealthView> {
    return this.service.clearCooldown(dto);
  }

  @Post('cooldowns/window')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @OkAnswer(ToolHealthView)
  @ApiContract(
    'changeCooldownWindow',
    "Change a cooldown's window without restarting it",
    'An admin gives one cooldown a new window (windowMs). A running cooldown keeps its start and now ends at start + the new window (or at once, if that has passed); an expired one stays expired. Later repetitions climb the ladder from the new window. Unlike setCooldown with durationMs, nothing restarts now. 404 when there is no such cooldown.',
  )
  changeCooldownWindow(@Body() dto: ChangeCooldownWindowDto): Promise<ToolHealthView> {
    return this.service.changeCooldownWindow(dto);
  }

  @Post('cooldowns/sweep')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: SweepResultView })
  @ApiContract(
    'sweepCooldowns',
    'Delete long-expired cooldowns now',
    'Removes the cooldowns that expired longer than the grace period ago, everywhere, as the periodic sweep does. Answers how many entries and cooldowns were touched.',
  )
  sweep(): Promise<SweepResultView> {
    return this.service.sweep();
  }
}
