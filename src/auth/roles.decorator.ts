import { SetMetadata } from '@nestjs/common';
import { Role } from '../domain/role';

export const ROLES_KEY = 'tas:roles';
export const PUBLIC_KEY = 'tas:public';

/** The roles allowed to call a route or resolver; admin is always allowed (D17). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** Open without a key (D17: `/health/*`, docs and playground pages). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

export const FEED_TOKEN_KEY = 'tas:feed-token';

/**
 * The route also takes a calendar feed token in its query string, for clients that can send no
 * header (calendar apps): a request without an API key passes the key guard, and the route
 * checks the token itself (P227). A request with a key is checked as usual.
 */
export const AcceptsFeedToken = () => SetMetadata(FEED_TOKEN_KEY, true);
