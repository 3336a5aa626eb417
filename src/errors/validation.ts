import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    const field = parent ? (/^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`) : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Whitelisting validation; the 400 names the first offending field and lists all of them. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const problems = flatten(errors);
      const first = problems[0] ?? { field: 'body', message: 'is invalid' };
      return new DomainError(
        DomainErrorCode.INVALID_ARGUMENT,
        problems.map((p) => `${p.field}: ${p.message}`).join('; '),
        first.field,
      );
    },
  });
}
