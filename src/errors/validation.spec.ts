import { fieldMessage } from './validation';

describe('fieldMessage (P64)', () => {
  it('names the field once, with its path', () => {
    expect(fieldMessage('toolName', 'toolName', 'matches', 'toolName must be 1-256 characters')).toBe('toolName must be 1-256 characters');
    expect(fieldMessage('context.userId', 'userId', 'isString', 'userId must be a string')).toBe('context.userId must be a string');
    expect(fieldMessage('status', 'status', 'whitelistValidation', 'property status should not exist')).toBe('status should not exist');
    expect(fieldMessage('first', 'first', 'max', 'first must not be greater than 500')).toBe('first must not be greater than 500');
    expect(fieldMessage('toolNames', 'toolNames', 'isString', 'each value in toolNames must be a string')).toBe(
      'each value in toolNames must be a string',
    );
  });

  it('says what a date must look like instead of "must be a Date instance"', () => {
    expect(fieldMessage('until', 'until', 'isDate', 'until must be a Date instance')).toBe(
      'until must be an ISO 8601 date-time, e.g. 2026-05-23T14:30:00Z',
    );
  });

  it('keeps a custom message that does not start with the property, after the field', () => {
    expect(fieldMessage('scopeId', 'scopeId', 'custom', 'must be null for GLOBAL')).toBe('scopeId: must be null for GLOBAL');
  });
});
