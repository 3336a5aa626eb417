/** Whether the tool is usable (§2). RETESTING is never stored: it is computed on read (D5). */
export enum ToolStatus {
  OK = 'OK',
  DEGRADED = 'DEGRADED',
  DOWN = 'DOWN',
}
