/** Diagnostic classifications (§3.2): the vocabulary between Agrajag and the health document. */
export enum ToolHealthClassification {
  TECHNICALLY_BROKEN = 'TECHNICALLY_BROKEN',
  USER_SPECIFIC_TECHNICAL = 'USER_SPECIFIC_TECHNICAL',
  USER_PERMISSION = 'USER_PERMISSION',
  USER_INPUT = 'USER_INPUT',
  INTERMITTENT = 'INTERMITTENT',
  WORKING = 'WORKING',
}

/** The classes that describe a technical fault of the tool (a probe can disprove them) (D11). */
export const TECHNICAL_CLASSES: ReadonlySet<ToolHealthClassification> = new Set([
  ToolHealthClassification.TECHNICALLY_BROKEN,
  ToolHealthClassification.USER_SPECIFIC_TECHNICAL,
  ToolHealthClassification.INTERMITTENT,
]);

/** Classes that concern one user's rights or input, never the shared status (D11). */
export const USER_CLASSES: ReadonlySet<ToolHealthClassification> = new Set([
  ToolHealthClassification.USER_PERMISSION,
  ToolHealthClassification.USER_INPUT,
]);
