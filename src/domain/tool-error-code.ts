/** Dispatch codes (§3.1): what the dispatch path saw, synchronously. */
export enum ToolErrorCode {
  NOT_REGISTERED = 'NOT_REGISTERED',
  BACKEND_UNREACHABLE = 'BACKEND_UNREACHABLE',
  BACKEND_FAILED = 'BACKEND_FAILED',
  DISALLOWED = 'DISALLOWED',
}

/** NOT_REGISTERED and DISALLOWED are not tool faults: they never touch health or cooldowns. */
export function isToolFault(code: ToolErrorCode): boolean {
  return code === ToolErrorCode.BACKEND_UNREACHABLE || code === ToolErrorCode.BACKEND_FAILED;
}
