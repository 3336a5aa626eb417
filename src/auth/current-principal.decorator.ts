import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { GqlContextType, GqlExecutionContext } from '@nestjs/graphql';
import { Principal } from './principal';

/** The authenticated caller, set by ApiKeyGuard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  if (context.getType<GqlContextType>() === 'graphql') {
    const gql = GqlExecutionContext.create(context).getContext<{ req?: { principal: Principal }; principal?: Principal }>();
    return (gql.req?.principal ?? gql.principal)!;
  }
  return context.switchToHttp().getRequest<{ principal: Principal }>().principal;
});
