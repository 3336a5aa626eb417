/** The roles an API key can hold (D17). */
export enum Role {
  DISPATCHER = 'dispatcher',
  TOOL_HEALTH_WRITER = 'tool-health-writer',
  AUDIT_READER = 'audit-reader',
  ADMIN = 'admin',
}
