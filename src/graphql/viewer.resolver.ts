import { Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Roles } from '../auth/roles.decorator';
import { Principal, holdsRole } from '../auth/principal';
import { Role } from '../domain/role';
import { ViewField, ViewType } from '../shapes/view-field';

@ViewType('Viewer', 'The API key of this request: its name and roles, so a client such as the operator console can say what it may do.')
export class ViewerView {
  @ViewField('The name the key is configured under (recorded as "admin:<name>" by its admin writes).') name: string;
  @ViewField('The roles the key holds.', { type: () => [String], openapi: { type: [String] } }) roles: string[];
  @ViewField('Whether the key may run mutations (admin).') canWrite: boolean;
}

/** Who the key is (P172): the operator console reads it to show or hide its actions. */
@Resolver()
@Roles(Role.AUDIT_READER)
export class ViewerResolver {
  @Query(() => ViewerView, { description: 'The API key of this request: its name, its roles, and whether it may run mutations.' })
  viewer(@CurrentPrincipal() principal: Principal): ViewerView {
    return { name: principal.name, roles: [...principal.roles], canWrite: holdsRole(principal, Role.ADMIN) };
  }
}
