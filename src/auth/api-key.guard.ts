import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlContextType, GqlExecutionContext } from '@nestjs/graphql';
import { ApiKeyService } from './api-key.service';
import { Principal } from './principal';
import { FEED_TOKEN_KEY, PUBLIC_KEY, ROLES_KEY } from './roles.decorator';
import { Role } from '../domain/role';

export const API_KEY_HEADER = 'x-api-key';

interface KeyedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}

/**
 * Global guard: every handler needs a key unless marked @Public(). A handler without @Roles is
 * admin-only, so a new route is closed until someone decides who may call it.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = this.requestOf(context);
    if (!request) return true; // graphql-ws: authenticated once in connection_init instead
    if (request.headers[API_KEY_HEADER] === undefined && this.reflector.getAllAndOverride<boolean>(FEED_TOKEN_KEY, targets)) return true;
    const principal = request.principal ?? this.keys.authenticate(request.headers[API_KEY_HEADER]);
    request.principal = principal;
    this.keys.authorize(principal, this.reflector.getAllAndOverride<Role[]>(ROLES_KEY, targets) ?? [Role.ADMIN]);
    return true;
  }

  private requestOf(context: ExecutionContext): KeyedRequest | undefined {
    if (context.getType<GqlContextType>() === 'graphql') {
      const gql = GqlExecutionContext.create(context).getContext<{ req?: KeyedRequest; principal?: Principal }>();
      if (gql.req) return gql.req;
      return gql.principal ? { headers: {}, principal: gql.principal } : undefined;
    }
    return context.switchToHttp().getRequest<KeyedRequest>();
  }
}
