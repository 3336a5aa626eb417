import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { nullsAbsent } from '../../shapes/admin-actor';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { Clock } from '../../runtime/clock';
import {
  ChangeMaintenanceInput,
  ChangeMaintenanceOccurrenceInput,
  EndMaintenanceSeriesInput,
  MaintenanceWindowsFilter,
  ScheduleMaintenanceInput,
  SkipMaintenanceOccurrenceInput,
} from './maintenance.input';
import { MaintenanceWindowView, toMaintenanceWindowView } from './maintenance-window.view';
import { MaintenanceService } from './maintenance.service';

/** Issue 16 on the admin API: admins write, audit-readers may read (D17). */
@Resolver(() => MaintenanceWindowView)
export class MaintenanceResolver {
  constructor(
    private readonly service: MaintenanceService,
    private readonly clock: Clock,
  ) {}

  @Query(() => [MaintenanceWindowView], { description: 'Maintenance windows, newest start first; by default only those not yet over.' })
  @Roles(Role.AUDIT_READER)
  async maintenanceWindows(
    @Args('filter', {
      type: () => MaintenanceWindowsFilter,
      nullable: true,
      description: 'Which windows; all coming and running ones when absent.',
    })
    filter?: MaintenanceWindowsFilter | null,
  ): Promise<MaintenanceWindowView[]> {
    const f = filter ? nullsAbsent(filter) : {};
    const now = this.clock.now();
    const found = await this.service.list({ ...f, limit: (f as { first?: number }).first });
    return found.map((w) => toMaintenanceWindowView(w, now));
  }

  @Mutation(() => MaintenanceWindowView, {
    description: 'Schedule a maintenance window: while in force the tool reads DOWN, expected back at its end.',
  })
  @Roles(Role.ADMIN)
  async scheduleMaintenance(
    @Args('input', { description: 'The window to schedule.' }) input: ScheduleMaintenanceInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.schedule(input, by), this.clock.now());
  }

  @Mutation(() => MaintenanceWindowView, {
    description: 'Move, extend, shorten or re-word a window that has not ended (its start only before it began).',
  })
  @Roles(Role.ADMIN)
  async changeMaintenance(
    @Args('input', { description: 'The window and what changes.' }) input: ChangeMaintenanceInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<MaintenanceWindowView> {
    const { id, ...change } = nullsAbsent(input);
    return toMaintenanceWindowView(await this.service.change(id, change, by), this.clock.now());
  }

  @Mutation(() => MaintenanceWindowView, { description: 'Cancel a window that has not ended; one in force ends now.' })
  @Roles(Role.ADMIN)
  async cancelMaintenance(
    @Args('id', { type: () => ID, description: 'The window to cancel.' }) id: string,
    @CurrentPrincipal() by: Principal,
  ): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.cancel(id, by), this.clock.now());
  }

  @Mutation(() => MaintenanceWindowView, { description: 'Skip one occurrence of a recurring window that has not begun.' })
  @Roles(Role.ADMIN)
  async skipMaintenanceOccurrence(
    @Args('input', { description: 'The series and the occurrence.' }) input: SkipMaintenanceOccurrenceInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.skipOccurrence(input.id, input.occurrence, by), this.clock.now());
  }

  @Mutation(() => MaintenanceWindowView, { description: 'Change one occurrence of a recurring window alone.' })
  @Roles(Role.ADMIN)
  async changeMaintenanceOccurrence(
    @Args('input', { description: 'The series, the occurrence and what changes.' }) input: ChangeMaintenanceOccurrenceInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<MaintenanceWindowView> {
    const { id, occurrence, ...change } = nullsAbsent(input);
    return toMaintenanceWindowView(await this.service.changeOccurrence(id, occurrence, change, by), this.clock.now());
  }

  @Mutation(() => MaintenanceWindowView, { description: 'End a recurring window: no occurrence starts at or after `at`.' })
  @Roles(Role.ADMIN)
  async endMaintenanceSeries(
    @Args('input', { description: 'The series and when it ends.' }) input: EndMaintenanceSeriesInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<MaintenanceWindowView> {
    return toMaintenanceWindowView(await this.service.endSeries(input.id, input.at ?? null, by), this.clock.now());
  }
}
