import { SetMetadata } from '@nestjs/common';
import { Role } from '../domain/role';

export const ROLES_KEY = 'tas:roles';
export const PUBLIC_KEY = 'tas:public';

/** The roles allowed to call a route or resolver; admin is always allowed (D17). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** Open without a key (D17: `/health/*`, docs and playground pages). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
