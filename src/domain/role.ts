/** D17: the roles an API key can hold. */
export enum Role {
  DISPATCHER = 'dispatcher',
  TOOL_HEALTH_WRITER = 'tool-health-writer',
  AUDIT_READER = 'audit-reader',
  ADMIN = 'admin',
}
